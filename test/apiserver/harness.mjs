#!/usr/bin/env node
// Builds and runs the test apiextensions-apiserver (a real Kubernetes CRD API
// server with an embedded etcd, on 127.0.0.1 only). Go is needed to build it;
// it is a test dependency only. No npm dependencies.
//
//   node test/apiserver/harness.mjs build [--minor 1.NN | --all]
//       build bin/crdx-apiserver (skipped when newer than every source file);
//       --minor builds that Kubernetes minor's server from minors/v1.NN
//       (bin/crdx-apiserver-v1.NN), --all every minor (`minors` lists them)
//   node test/apiserver/harness.mjs start [--dir DIR] [--port N] [-- apiserver flags...]
//       build if needed, start the server, print the kubeconfig path and keep
//       running until Ctrl-C (then stop the server)
//   node test/apiserver/harness.mjs path
//       print the binary's path

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const apiserverDir = path.dirname(fileURLToPath(import.meta.url));
/** The default server's binary (the Kubernetes minor of test/apiserver/go.mod). */
export const binaryPath = path.join(apiserverDir, "bin", "crdx-apiserver");
/** Other minors: test/apiserver/minors/v1.NN/ holds that minor's go.mod and go.sum (and any .go file that replaces a shared one). */
export const minorsDir = path.join(apiserverDir, "minors");

class HarnessError extends Error {}

function goOnPath() {
  const r = spawnSync("go", ["version"], { stdio: "ignore" });
  return !r.error && r.status === 0;
}

/** The Kubernetes minor a go.mod builds (from its k8s.io/apiextensions-apiserver v0.MINOR.PATCH), with the patch. */
function moduleVersion(dir) {
  const gomod = fs.readFileSync(path.join(dir, "go.mod"), "utf8");
  const m = /^\s*k8s\.io\/apiextensions-apiserver\s+v0\.(\d+)\.(\d+)\s*$/m.exec(gomod);
  return m ? { minor: Number(m[1]), patch: Number(m[2]) } : undefined;
}

/** The minor of the default server (test/apiserver/go.mod). */
export function defaultMinor() {
  return moduleVersion(apiserverDir)?.minor;
}

/** Every minor the harness can build, ascending: the default one and those under minors/. */
export function minors() {
  const extra = fs.existsSync(minorsDir)
    ? fs.readdirSync(minorsDir).flatMap((d) => (/^v1\.(\d+)$/.test(d) ? [Number(d.slice(3))] : []))
    : [];
  return [...new Set([defaultMinor(), ...extra])].filter((m) => m !== undefined).sort((a, b) => a - b);
}

/** Normalises a minor given as 33, "33", "1.33" or "v1.33"; undefined for the default server. */
function minorOf(v) {
  if (v === undefined || v === null || v === "") return undefined;
  const m = /^v?(?:1\.)?(\d+)$/.exec(String(v));
  if (!m) throw new HarnessError(`not a Kubernetes minor: ${v} (expected e.g. 1.33)`);
  const n = Number(m[1]);
  if (n === defaultMinor()) return undefined;
  if (!fs.existsSync(path.join(minorsDir, `v1.${n}`, "go.mod"))) {
    throw new HarnessError(`no test apiserver module for 1.${n}: the harness builds ${minors().map((x) => `1.${x}`).join(", ")}`);
  }
  return n;
}

/** Where one minor's sources, binary and build lock are. */
function layout(minor) {
  if (minor === undefined) return { moduleDir: apiserverDir, buildDir: apiserverDir, binary: binaryPath, lock: path.join(apiserverDir, "bin", ".build-lock") };
  const name = `v1.${minor}`;
  return {
    moduleDir: path.join(minorsDir, name),
    buildDir: path.join(apiserverDir, "bin", `src-${name}`),
    binary: path.join(apiserverDir, "bin", `crdx-apiserver-${name}`),
    lock: path.join(apiserverDir, "bin", `.build-lock-${name}`),
  };
}

/** The binary of a minor (default: the default server's). */
export function binaryFor(minor) {
  return layout(minorOf(minor)).binary;
}

function sourceFiles(minor) {
  const shared = fs
    .readdirSync(apiserverDir)
    .filter((f) => f.endsWith(".go") || f === "go.mod" || f === "go.sum" || f === "harness.mjs")
    .map((f) => path.join(apiserverDir, f));
  if (minor === undefined) return shared;
  // a minor builds with its own go.mod and go.sum: the default server's do not make it stale
  const own = layout(minor).moduleDir;
  return [...shared.filter((f) => !/go\.(mod|sum)$/.test(f)), ...fs.readdirSync(own).map((f) => path.join(own, f))];
}

/** True when the binary exists and is newer than every Go source and go.mod/go.sum. */
export function upToDate(minor) {
  let built;
  try {
    built = fs.statSync(layout(minor).binary).mtimeMs;
  } catch {
    return false;
  }
  return sourceFiles(minor).every((f) => fs.statSync(f).mtimeMs <= built);
}

/**
 * A minor's build directory: the shared .go files, then that minor's own files (its go.mod, go.sum
 * and any .go file replacing a shared one), copied afresh.
 */
function prepareBuildDir(minor) {
  const { moduleDir, buildDir } = layout(minor);
  fs.rmSync(buildDir, { recursive: true, force: true });
  fs.mkdirSync(buildDir, { recursive: true });
  for (const f of fs.readdirSync(apiserverDir).filter((f) => f.endsWith(".go"))) fs.copyFileSync(path.join(apiserverDir, f), path.join(buildDir, f));
  for (const f of fs.readdirSync(moduleDir)) fs.copyFileSync(path.join(moduleDir, f), path.join(buildDir, f));
}

/** -X flags so that /version reports the Kubernetes release matching the module version. */
function versionLdflags(dir) {
  const v = moduleVersion(dir);
  if (!v) return [];
  const pkg = "k8s.io/component-base/version";
  return [`-X ${pkg}.gitVersion=v1.${v.minor}.${v.patch}`, `-X ${pkg}.gitMajor=1`, `-X ${pkg}.gitMinor=${v.minor}`];
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A directory lock so that parallel test workers do not all run `go build`.
async function withBuildLock(lockDir, fn) {
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, "pid"), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      let owner = NaN;
      try {
        owner = Number(fs.readFileSync(path.join(lockDir, "pid"), "utf8"));
      } catch {
        // being created or removed right now
      }
      if (Number.isInteger(owner) && owner > 0 && !pidAlive(owner)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Builds bin/crdx-apiserver (or, with `minor`, bin/crdx-apiserver-v1.MINOR from minors/v1.MINOR)
 * unless it is up to date. Resolves to the binary's path. `log` receives progress lines (default:
 * stderr).
 */
export async function build({ force = false, minor: wanted, log = (s) => process.stderr.write(s + "\n") } = {}) {
  const minor = minorOf(wanted);
  const { binary, buildDir, lock } = layout(minor);
  if (!force && upToDate(minor)) return binary;
  if (!goOnPath()) {
    throw new HarnessError("crdx test apiserver: `go` is not on PATH (Go 1.26+ is needed to build test/apiserver)");
  }
  return withBuildLock(lock, async () => {
    if (!force && upToDate(minor)) return binary; // another process built it meanwhile
    if (minor !== undefined) prepareBuildDir(minor);
    const tmp = `${binary}.tmp-${process.pid}`;
    const args = ["build", "-ldflags", ["-s", "-w", ...versionLdflags(buildDir)].join(" "), "-o", tmp, "."];
    log(`crdx test apiserver${minor === undefined ? "" : ` 1.${minor}`}: go ${args.join(" ")} (first build takes minutes)`);
    const started = Date.now();
    const code = await new Promise((resolve, reject) => {
      const child = spawn("go", args, { cwd: buildDir, stdio: ["ignore", "inherit", "inherit"] });
      child.on("error", reject);
      child.on("exit", (c, sig) => resolve(sig ? 128 : c));
    });
    if (code !== 0) {
      fs.rmSync(tmp, { force: true });
      throw new HarnessError(`crdx test apiserver: go build failed (exit ${code})`);
    }
    fs.renameSync(tmp, binary);
    log(`crdx test apiserver: built ${binary} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return binary;
  });
}

function parseArgs(argv) {
  const opts = { dir: undefined, port: undefined, minor: undefined, extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      opts.extra = argv.slice(i + 1);
      break;
    } else if (a === "--dir") opts.dir = argv[++i];
    else if (a.startsWith("--dir=")) opts.dir = a.slice(6);
    else if (a === "--port") opts.port = argv[++i];
    else if (a === "--minor") opts.minor = argv[++i];
    else if (a.startsWith("--minor=")) opts.minor = a.slice(8);
    else if (a.startsWith("--port=")) opts.port = a.slice(7);
    else throw new HarnessError(`unknown argument ${a}`);
  }
  return opts;
}

/**
 * Builds if needed and starts the server with state in `dir` (default: a new
 * temporary directory). Resolves once DIR/ready.json is written, to
 * { info, dir, child, exited, stop }, where info is ready.json's content
 * and stop() ends the server (SIGTERM, SIGKILL after 15 s).
 */
export async function startServer({ dir, port, minor, extraArgs = [], timeoutMs = 120_000, stdio = "inherit" } = {}) {
  const bin = await build({ minor });
  dir = path.resolve(dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "crdx-apiserver-")));
  fs.mkdirSync(dir, { recursive: true });
  const readyFile = path.join(dir, "ready.json");
  fs.rmSync(readyFile, { force: true });
  const args = ["--dir", dir, "--exit-on-stdin-close", "--exit-with-parent"];
  if (port !== undefined) args.push("--port", String(port));
  args.push(...extraArgs);
  // Own process group: a terminal's Ctrl-C reaches only this script, which then
  // stops the server once (a second signal would make the server exit at once).
  // If this script dies, the server sees its stdin close and stops by itself.
  const child = spawn(bin, args, { stdio: ["pipe", stdio, stdio], detached: true });
  const server = { dir, child, info: undefined, exited: undefined };
  server.exitPromise = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      server.exited = { code, signal };
      resolve(server.exited);
    });
    child.on("error", (err) => {
      server.exited = { error: err.message };
      resolve(server.exited);
    });
  });
  server.stop = async () => {
    if (!server.exited) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15000);
      await server.exitPromise;
      clearTimeout(timer);
    }
    child.stdin?.destroy();
    return server.exited;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.exited) {
      throw new HarnessError(`crdx test apiserver exited before it was ready (${JSON.stringify(server.exited)})`);
    }
    try {
      const info = JSON.parse(fs.readFileSync(readyFile, "utf8"));
      if (info.pid === child.pid) {
        server.info = info;
        return server;
      }
    } catch {
      // not there yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new HarnessError(`crdx test apiserver not ready after ${timeoutMs / 1000}s`);
    }
    await sleep(50);
  }
}

async function start(argv) {
  const opts = parseArgs(argv);
  let stopping = false;
  let server;
  const stop = async (why) => {
    if (stopping) return;
    stopping = true;
    if (server && !server.exited) {
      process.stderr.write(`crdx test apiserver: ${why}, stopping server (pid ${server.child.pid})\n`);
      await server.stop();
    }
    process.exit(!server || (server.exited && server.exited.code === 0) ? 0 : 1);
  };
  process.on("SIGINT", () => stop("interrupted"));
  process.on("SIGTERM", () => stop("terminated"));
  server = await startServer({ dir: opts.dir, port: opts.port, minor: opts.minor, extraArgs: opts.extra });
  const { info } = server;
  process.stdout.write(
    `crdx test apiserver ready: ${info.server}\n` +
      `kubeconfig: ${info.kubeconfig}\n` +
      `  export KUBECONFIG=${info.kubeconfig}\n` +
      `Press Ctrl-C to stop.\n`,
  );
  const result = await server.exitPromise;
  if (!stopping) {
    process.stderr.write(`crdx test apiserver exited: ${JSON.stringify(result)}\n`);
    process.exit(1);
  }
}

async function main() {
  const [cmd, ...rest] = process.argv.slice(2);
  const minorArg = () => {
    const i = rest.findIndex((a) => a === "--minor" || a.startsWith("--minor="));
    return i < 0 ? undefined : rest[i].startsWith("--minor=") ? rest[i].slice(8) : rest[i + 1];
  };
  switch (cmd) {
    case "build":
      if (rest.includes("--all")) {
        for (const m of minors()) process.stdout.write((await build({ force: rest.includes("--force"), minor: m })) + "\n");
      } else process.stdout.write((await build({ force: rest.includes("--force"), minor: minorArg() })) + "\n");
      break;
    case "start":
      await start(rest);
      break;
    case "path":
      process.stdout.write(binaryFor(minorArg()) + "\n");
      break;
    case "minors":
      process.stdout.write(minors().map((m) => `1.${m}`).join("\n") + "\n");
      break;
    default:
      process.stderr.write("usage: node test/apiserver/harness.mjs build [--force] [--minor 1.NN | --all] | start [--minor 1.NN] [--dir DIR] [--port N] [-- apiserver flags] | path [--minor 1.NN] | minors\n");
      process.exit(2);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write((e instanceof HarnessError ? e.message : e?.stack ?? String(e)) + "\n");
    process.exit(1);
  });
}
