/**
 * The built CLI's standard output and error (src/cli/process.ts writes them with write(2) on the
 * descriptor, without Node's stream): the same bytes to a pipe and to a file, no colour on either
 * when nothing asks for it, and a reader that stops early is no crash. Needs `npm run build:dist`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'kubectl-crdx');
const scratch = mkdtempSync(join(tmpdir(), 'crdx-stdio-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// a CRD and 3,000 custom resources of it, each with an unknown field (an error finding): output well
// over a pipe's 64 KiB, from the repository's own fixtures (no corpus needed)
const SIM = join(ROOT, 'fixtures', 'simulate', 'basic-defaults');
const CRD = join(SIM, 'crd.yaml');
const MANY = join(scratch, 'many.yaml');
const one = readFileSync(join(SIM, 'input.yaml'), 'utf8');
writeFileSync(MANY, Array.from({ length: 3000 }, (_, i) => one.replace('name: my-widget', `name: my-widget-${i}`)).join('\n---\n'));

// no NO_COLOR, FORCE_COLOR or TERM: colour is decided by whether stdout is a terminal
const ENV = { PATH: process.env['PATH'] ?? '', HOME: scratch };

describe('standard output and error of the built CLI', () => {
  it('a pipe and a file get the same bytes, uncoloured; so does standard error', () => {
    const args = [BIN, 'lint', join(ROOT, 'fixtures', 'crds'), '--crd', CRD, MANY];
    const piped = spawnSync(process.execPath, args, { cwd: ROOT, env: ENV, encoding: 'utf8', maxBuffer: 1 << 28 });
    const out = join(scratch, 'out.txt');
    const err = join(scratch, 'err.txt');
    const fdOut = openSync(out, 'w');
    const fdErr = openSync(err, 'w');
    const toFile = spawnSync(process.execPath, args, { cwd: ROOT, env: ENV, stdio: ['ignore', fdOut, fdErr] });
    closeSync(fdOut);
    closeSync(fdErr);
    expect(piped.status).toBe(1);
    expect(toFile.status).toBe(1);
    expect(piped.stdout.length).toBeGreaterThan(1000);
    expect(readFileSync(out, 'utf8')).toBe(piped.stdout);
    expect(readFileSync(err, 'utf8')).toBe(piped.stderr);
    expect(piped.stdout).not.toContain('\u001b[');
  });

  it('more output than a pipe holds arrives whole, in order', () => {
    // the custom resources defaulted, as JSON: well over a pipe's 64 KiB
    const r = spawnSync(process.execPath, [BIN, 'default', '--no-explain', '-o', 'json', '--crd', CRD, MANY], { cwd: ROOT, env: ENV, encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(r.stdout.length).toBeGreaterThan(1 << 17);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    expect(r.stderr).not.toContain('internal error');
  });

  it('a reader that stops after a few bytes: the rest is dropped, the exit code is the lint verdict, nothing on stderr', async () => {
    const child = spawn(process.execPath, [BIN, 'lint', '-o', 'json', '--crd', CRD, MANY], { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(1);
  });
});
