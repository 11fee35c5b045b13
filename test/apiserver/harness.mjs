#!/usr/bin/env node
// Builds and runs the test apiextensions-apiserver (a real Kubernetes CRD API
// server with an embedded etcd, on 127.0.0.1 only). Go is needed to build it;
// it is a test dependency only. No npm dependencies.
//
//   node test/apiserver/harness.mjs build
//       build bin/crdx-apiserver (skipped when newer than every source file)
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
export const binaryPath = path.join(apiserverDir, "bin", "crdx-apiserver");
const lockDir = path.join(apiserverDir, "bin", ".build-lock");

class HarnessError extends Error {}

function goOnPath() {
  const r = spawnSync("go", ["version"], { stdio: "ignore" });
  return !r.error && r.status === 0;
}

function sourceFiles() {
  return fs
    .readdirSync(apiserverDir)
    .filter((f) => f.endsWith(".go") || f === "go.mod" || f === "go.sum" || f === "harness.mjs")
    .map((f) => path.join(apiserverDir, f));
}

/** True when the binary exists and is newer than every Go source and go.mod/go.sum. */
export function upToDate() {
  let built;
  try {
    built = fs.statSync(binaryPath).mtimeMs;
  } catch {
    return false;
  }
  return sourceFiles().every((f) => fs.statSync(f).mtimeMs <= built);
}

/** -X flags so that /version reports the Kubernetes release matching the module version. */
function versionLdflags() {
  const gomod = fs.readFileSync(path.join(apiserverDir, "go.mod"), "utf8");
  const m = /^\s*k8s\.io\/apiextensions-apiserver\s+v0\.(\d+)\.(\d+)\s*$/m.exec(gomod);
  if (!m) return [];
  const pkg = "k8s.io/component-base/version";
  return [`-X ${pkg}.gitVersion=v1.${m[1]}.${m[2]}`, `-X ${pkg}.gitMajor=1`, `-X ${pkg}.gitMinor=${m[1]}`];
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
async function withBuildLock(fn) {
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
 * Builds bin/crdx-apiserver unless it is up to date. Resolves to the binary's
 * path. `log` receives progress lines (default: stderr).
 */
export async function build({ force = false, log = (s) => process.stderr.write(s + "\n") } = {}) {
  if (!force && upToDate()) return binaryPath;
  if (!goOnPath()) {
    throw new HarnessError("crdx test apiserver: `go` is not on PATH (Go 1.26+ is needed to build test/apiserver)");
  }
  return withBuildLock(async () => {
    if (!force && upToDate()) return binaryPath; // another process built it meanwhile
    const tmp = `${binaryPath}.tmp-${process.pid}`;
    const args = ["build", "-ldflags", ["-s", "-w", ...versionLdflags()].join(" "), "-o", tmp, "."];
    log(`crdx test apiserver: go ${args.join(" ")} (first build takes minutes)`);
    const started = Date.now();
    const code = await new Promise((resolve, reject) => {
      const child = spawn("go", args, { cwd: apiserverDir, stdio: ["ignore", "inherit", "inherit"] });
      child.on("error", reject);
      child.on("exit", (c, sig) => resolve(sig ? 128 : c));
    });
    if (code !== 0) {
      fs.rmSync(tmp, { force: true });
      throw new HarnessError(`crdx test apiserver: go build failed (exit ${code})`);
    }
    fs.renameSync(tmp, binaryPath);
    log(`crdx test apiserver: built ${binaryPath} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return binaryPath;
  });
}

function parseArgs(argv) {
  const opts = { dir: undefined, port: undefined, extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      opts.extra = argv.slice(i + 1);
      break;
    } else if (a === "--dir") opts.dir = argv[++i];
    else if (a.startsWith("--dir=")) opts.dir = a.slice(6);
    else if (a === "--port") opts.port = argv[++i];
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
export async function startServer({ dir, port, extraArgs = [], timeoutMs = 120_000, stdio = "inherit" } = {}) {
  const bin = await build();
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
  server = await startServer({ dir: opts.dir, port: opts.port, extraArgs: opts.extra });
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
  switch (cmd) {
    case "build":
      await build({ force: rest.includes("--force") });
      process.stdout.write(binaryPath + "\n");
      break;
    case "start":
      await start(rest);
      break;
    case "path":
      process.stdout.write(binaryPath + "\n");
      break;
    default:
      process.stderr.write("usage: node test/apiserver/harness.mjs build [--force] | start [--dir DIR] [--port N] [-- apiserver flags] | path\n");
      process.exit(2);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write((e instanceof HarnessError ? e.message : e?.stack ?? String(e)) + "\n");
    process.exit(1);
  });
}
