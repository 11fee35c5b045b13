#!/usr/bin/env node
// The registry reachable here serves only this platform's builds of packages with per-platform
// optional dependencies (rollup, esbuild, ...), so `npm install` leaves the other platforms out of
// package-lock.json and `npm ci` then refuses the lock as out of sync. This adds the missing
// optional entries with the os/cpu/libc their names encode, so that npm ci skips them on other
// platforms and fetches them by name where they apply. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'netbsd', 'sunos', 'win32', 'aix', 'openharmony'];
const CPU = { arm: 'arm', arm64: 'arm64', x64: 'x64', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x', mips64el: 'mips64el', ppc: 'ppc', mips: 'mips' };
let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const here = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (pkgs[here] || pkgs[`node_modules/${name}`]) continue;
    const parts = name.split('/').pop().split('-');
    const os = parts.find((p) => OS.includes(p));
    const cpu = parts.map((p) => CPU[p]).find(Boolean);
    if (!os || !cpu) continue;
    const entry = { version: String(range).replace(/^[\^~=]/, ''), cpu: [cpu], license: meta.license ?? 'MIT', optional: true, os: [os] };
    if (parts.includes('musl') || parts.includes('musleabihf')) entry.libc = ['musl'];
    else if (parts.includes('gnu') || parts.includes('gnueabihf')) entry.libc = ['glibc'];
    pkgs[`node_modules/${name}`] = entry;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entries`);
