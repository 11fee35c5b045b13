// Test harness for differential tests against a real apiextensions-apiserver
// (Kubernetes' CRD API server, built from test/apiserver with Go and run with
// an embedded etcd on 127.0.0.1). Only node: built-ins are used.
//
//   import { goAvailable, startHarness, createCRD } from "./harness.js";
//   const h = await startHarness();          // builds on first use (minutes when cold)
//   const r = await createCRD(h, crd, { dryRun: true });
//   await h.stop();

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const apiserverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "apiserver");
const harnessScript = path.join(apiserverDir, "harness.mjs");
const binaryPath = path.join(apiserverDir, "bin", "crdx-apiserver");

/** The binary of one Kubernetes minor (undefined: the default server, test/apiserver/go.mod). */
function binaryOf(minor: number | undefined): string {
  return minor === undefined || minor === defaultMinor() ? binaryPath : path.join(apiserverDir, "bin", `crdx-apiserver-v1.${minor}`);
}

/** The minor of the default server: test/apiserver/go.mod's k8s.io/apiextensions-apiserver v0.MINOR.x. */
export function defaultMinor(): number {
  const m = /^\s*k8s\.io\/apiextensions-apiserver\s+v0\.(\d+)\.\d+\s*$/m.exec(fs.readFileSync(path.join(apiserverDir, "go.mod"), "utf8"));
  if (!m) throw new Error("test/apiserver/go.mod names no k8s.io/apiextensions-apiserver v0.MINOR.PATCH");
  return Number(m[1]);
}

/** Every minor the harness builds (the default one and test/apiserver/minors/v1.NN), ascending. */
export function harnessMinors(): number[] {
  const dir = path.join(apiserverDir, "minors");
  const extra = fs.existsSync(dir) ? fs.readdirSync(dir).flatMap((d) => (/^v1\.\d+$/.test(d) ? [Number(d.slice(3))] : [])) : [];
  return [...new Set([defaultMinor(), ...extra])].sort((a, b) => a - b);
}

/**
 * The minors a run compares on: CRDX_MINORS (e.g. "1.33,1.37"; .ci/run sets its fixed subset) or,
 * unset, every one the harness builds. Each minor besides the default is a Go build of its own.
 */
export function selectedMinors(): number[] {
  const all = harnessMinors();
  const env = process.env["CRDX_MINORS"]?.trim();
  if (!env) return all;
  const wanted = env.split(",").map((s) => {
    const m = /^v?(?:1\.)?(\d+)$/.exec(s.trim());
    if (!m) throw new Error(`CRDX_MINORS: not a Kubernetes minor: ${s}`);
    return Number(m[1]);
  });
  for (const w of wanted) if (!all.includes(w)) throw new Error(`CRDX_MINORS: the harness does not build 1.${w} (it builds ${all.map((m) => `1.${m}`).join(", ")})`);
  return [...new Set(wanted)].sort((a, b) => a - b);
}

export const CRD_API = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

export interface Response {
  status: number;
  /** Parsed JSON, or the raw text when the body is not JSON ("" when empty). */
  body: any;
  /** The texts of the Warning headers, in order (kubectl prints them as `Warning: <text>`). */
  warnings: string[];
}

export interface RequestOptions {
  /** Content-Type of the request body; default application/json. */
  contentType?: string;
  /** Accept header; default application/json (a Table: application/json;as=Table;v=v1;g=meta.k8s.io). */
  accept?: string;
}

export interface Harness {
  /** https://127.0.0.1:PORT */
  server: string;
  /** Bearer token (authenticates as a member of system:masters). */
  token: string;
  /** PEM file of the CA that signed the serving certificate. */
  caFile: string;
  /** kubeconfig for kubectl (current context set). */
  kubeconfig: string;
  /** Server state directory (kubeconfig, ca.crt, etcd data). */
  dir: string;
  request(method: string, path: string, body?: unknown, opts?: RequestOptions): Promise<Response>;
  /** Last lines the server wrote to stderr. */
  logTail(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** State directory; default a fresh temporary directory, removed by stop(). */
  dir?: string;
  /** Port at 127.0.0.1; default 0 = any free port. */
  port?: number;
  /** Extra apiextensions-apiserver flags, e.g. ["--feature-gates=..."]. */
  extraArgs?: string[];
  /** The Kubernetes minor of the server (one of harnessMinors()); default the default server's. */
  minor?: number;
  /** How long to wait for ready.json after spawning; default 120 s. */
  timeoutMs?: number;
  /** Copy the server's stderr to this process's stderr; default when CRDX_APISERVER_LOG is set. */
  echoLog?: boolean;
}

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

let goAvailableCache: boolean | undefined;

/** True when `go` is on PATH, i.e. the test apiserver can be built. */
export function goAvailable(): boolean {
  if (goAvailableCache === undefined) {
    const r = spawnSync("go", ["version"], { stdio: "ignore" });
    goAvailableCache = !r.error && r.status === 0;
  }
  return goAvailableCache;
}

/** True when the server binary is already built (go is then not needed). */
export function binaryBuilt(): boolean {
  return fs.existsSync(binaryPath);
}

/** Builds the binary (of `minor`, default the default server) if it is missing or older than its sources (`harness.mjs build`). */
export async function buildApiserver(minor?: number): Promise<string> {
  const out: Buffer[] = [];
  const code = await new Promise<number>((resolve, reject) => {
    const args = [harnessScript, "build", ...(minor === undefined ? [] : ["--minor", `1.${minor}`])];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => out.push(d));
    child.on("error", reject);
    child.on("exit", (c, sig) => resolve(sig ? 128 : (c ?? 1)));
  });
  if (code !== 0) {
    const text = Buffer.concat(out).toString("utf8").trim();
    throw new Error(`building the test apiserver failed:\n${tail(text, 40)}`);
  }
  return binaryOf(minor);
}

function tail(text: string, lines: number): string {
  return text.split("\n").slice(-lines).join("\n");
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface ReadyInfo {
  server: string;
  token: string;
  caFile: string;
  kubeconfig: string;
  pid: number;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort if a test run ends without stop(): the servers also exit by
  // themselves when their stdin closes.
  process.on("exit", () => {
    for (const c of running) c.kill("SIGKILL");
  });
}

/** Builds (if needed) and starts a fresh server; resolves once it serves the CRD API. */
export async function startHarness(opts: StartOptions = {}): Promise<Harness> {
  const bin = await buildApiserver(opts.minor);
  const ownDir = opts.dir === undefined;
  const dir = path.resolve(opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "crdx-apiserver-")));
  fs.mkdirSync(dir, { recursive: true });
  const readyFile = path.join(dir, "ready.json");
  fs.rmSync(readyFile, { force: true });

  const args = ["--dir", dir, "--exit-on-stdin-close", "--exit-with-parent"];
  if (opts.port !== undefined) args.push("--port", String(opts.port));
  args.push(...(opts.extraArgs ?? []));
  const echo = opts.echoLog ?? Boolean(process.env.CRDX_APISERVER_LOG);

  // Own process group, so a Ctrl-C in the terminal does not signal it twice.
  const child = spawn(bin, args, { stdio: ["pipe", "ignore", "pipe"], detached: true });
  running.add(child);
  installExitHook();
  let log = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (d: string) => {
    log += d;
    if (log.length > 256 * 1024) log = log.slice(-128 * 1024);
    if (echo) process.stderr.write(d);
  });
  let exited: string | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.on("exit", (code, signal) => {
      exited = signal ? `signal ${signal}` : `exit code ${code}`;
      running.delete(child);
      resolve();
    });
    child.on("error", (err) => {
      exited = `spawn error: ${err.message}`;
      running.delete(child);
      resolve();
    });
  });
  const logTail = () => tail(log.trimEnd(), 30);

  let agent = new https.Agent({ keepAlive: true });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return exitPromise;
    stopped = true;
    agent.destroy();
    if (!exited) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exitPromise;
      clearTimeout(timer);
    }
    child.stdin?.destroy();
    if (ownDir) fs.rmSync(dir, { recursive: true, force: true });
  };

  const timeoutMs = opts.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  let info: ReadyInfo | undefined;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`test apiserver exited before it was ready (${exited}); its stderr ends with:\n${logTail()}`);
    }
    try {
      const parsed = JSON.parse(fs.readFileSync(readyFile, "utf8")) as ReadyInfo;
      if (parsed.pid === child.pid) {
        info = parsed;
        break;
      }
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`test apiserver was not ready after ${timeoutMs / 1000}s; its stderr ends with:\n${logTail()}`);
    }
    await sleep(50);
  }

  const ca = fs.readFileSync(info.caFile);
  agent = new https.Agent({ keepAlive: true, ca });
  const serverUrl = new URL(info.server);
  const token = info.token;

  const request = (method: string, reqPath: string, body?: unknown, ropts: RequestOptions = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      let payload: Buffer | undefined;
      if (body !== undefined) {
        payload =
          typeof body === "string"
            ? Buffer.from(body)
            : Buffer.isBuffer(body)
              ? body
              : Buffer.from(JSON.stringify(body, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v)));
      }
      const headers: Record<string, string | number> = {
        Authorization: `Bearer ${token}`,
        Accept: ropts.accept ?? "application/json",
      };
      if (payload) {
        headers["Content-Type"] = ropts.contentType ?? "application/json";
        headers["Content-Length"] = payload.length;
      }
      const req = https.request(
        {
          protocol: "https:",
          hostname: serverUrl.hostname,
          port: serverUrl.port,
          method: method.toUpperCase(),
          path: reqPath,
          headers,
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: any = text;
            if (text.length > 0) {
              try {
                parsed = JSON.parse(text);
              } catch {
                // not JSON: keep the text
              }
            }
            const warnings: string[] = [];
            for (let i = 0; i < res.rawHeaders.length; i += 2) {
              if (res.rawHeaders[i]!.toLowerCase() !== "warning") continue;
              const m = /^\d{3} \S+ "((?:[^"\\]|\\.)*)"/.exec(res.rawHeaders[i + 1]!);
              if (m) warnings.push(m[1]!.replace(/\\(.)/g, "$1"));
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, warnings });
          });
        },
      );
      req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${reqPath}: no answer within 60s`)));
      req.on("error", reject);
      req.end(payload);
    });

  return {
    server: info.server,
    token,
    caFile: info.caFile,
    kubeconfig: info.kubeconfig,
    dir,
    request,
    logTail,
    stop,
  };
}

function crdPath(name?: string, dryRun?: boolean): string {
  return CRD_API + (name ? `/${encodeURIComponent(name)}` : "") + (dryRun ? "?dryRun=All" : "");
}

/** POST a CustomResourceDefinition (with ?dryRun=All when dryRun). 201 on success, 422 when invalid. */
export function createCRD(h: Harness, crd: unknown, opts: { dryRun?: boolean } = {}): Promise<Response> {
  return h.request("POST", crdPath(undefined, opts.dryRun), crd);
}

/** PUT (update) a CustomResourceDefinition; the object needs metadata.resourceVersion. */
export function updateCRD(h: Harness, crd: { metadata: { name: string } }, opts: { dryRun?: boolean } = {}): Promise<Response> {
  return h.request("PUT", crdPath(crd.metadata.name, opts.dryRun), crd);
}

export function getCRD(h: Harness, name: string): Promise<Response> {
  return h.request("GET", crdPath(name));
}

/**
 * Creates a CRD and waits until it is Established; undefined when it is, else why not
 * (`not created: HTTP 422 "…"`).
 */
export async function installCRD(h: Harness, crd: Record<string, unknown>): Promise<string | undefined> {
  const r = await h.request("POST", CRD_API, crd);
  if (r.status !== 201) return `not created: HTTP ${r.status} ${JSON.stringify(r.body?.message ?? "")}`;
  await waitEstablished(h, String((crd["metadata"] as Record<string, unknown>)["name"]), 60_000);
  return undefined;
}

/**
 * Waits until the CRD is Established (as waitForConditionTrue: throws after timeoutMs), then
 * spares the suites the server's create delay: the custom resource handler makes every create
 * wait 2 s while the CRD's Established condition is under 2 s old
 * (customresource_handler.go: HA servers that have not seen the CRD yet), and the suites create
 * objects on hundreds of fresh CRDs. The wait is no validation; the condition's lastTransitionTime
 * is moved 3 s back (a PUT of the status subresource, which the handler reads from its informer).
 * Best effort: where that fails, the next create waits its 2 s.
 */
export async function waitEstablished(h: Harness, crdName: string, timeoutMs = 30_000): Promise<Condition | undefined> {
  const cond = await waitForConditionTrue(h, crdName, "Established", timeoutMs);
  await skipCreateDelay(h, crdName);
  return cond;
}

/** Moves the Established condition's lastTransitionTime of an Established CRD 3 s back (see waitEstablished). */
export async function skipCreateDelay(h: Harness, crdName: string): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const got = await h.request("GET", crdPath(crdName));
    const conds: Condition[] | undefined = got.body?.status?.conditions;
    const est = conds?.find((c) => c.type === "Established" && c.status === "True");
    if (got.status !== 200 || est === undefined) return;
    const past = new Date(Date.now() - 3000).toISOString().replace(/\.\d+Z$/, "Z");
    if (est.lastTransitionTime !== undefined && Date.parse(est.lastTransitionTime) <= Date.parse(past)) return;
    est.lastTransitionTime = past;
    // a 409 (a controller wrote the status in between) is tried again with a fresh read
    const put = await h.request("PUT", `${crdPath(crdName)}/status`, got.body);
    if (put.status !== 409) return;
  }
}

/** A request that a busy shared machine may drop (socket hang up) is sent again, a few times. */
export async function send(h: Harness, method: string, path: string, body?: unknown): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await h.request(method, path, body);
    } catch (e) {
      if (attempt >= 5 || !/socket hang up|ECONNRESET/.test(String(e))) throw e;
      await sleep(200 * attempt);
    }
  }
}

/**
 * PUTs a revision of an installed CRD (path query `query`, e.g. "?dryRun=All") with the installed
 * resourceVersion; a 409 (a controller wrote the status in between) is retried with a fresh read.
 * Returns the installed CRD as read before the answering PUT, and the answer.
 */
export async function putCRD(h: Harness, next: { metadata?: { name?: unknown } } & Record<string, unknown>, query = ""): Promise<{ installed: any; response: Response }> {
  const name = encodeURIComponent(String(next.metadata?.name));
  for (let attempt = 1; ; attempt++) {
    const got = await send(h, "GET", `${CRD_API}/${name}`);
    if (got.status !== 200) throw new Error(`GET ${name}: HTTP ${got.status}`);
    const body = { ...next, metadata: { ...(next.metadata ?? {}), resourceVersion: String(got.body.metadata.resourceVersion) } };
    const response = await send(h, "PUT", `${CRD_API}/${name}${query}`, body);
    if (response.status !== 409 || attempt >= 10) return { installed: got.body, response };
    await sleep(200);
  }
}

/** The causes of an answer as the suites compare them: "reason field: message". */
export const causeText = (reason: string, field: string, message: string): string => `${reason} ${field}: ${message}`;

/**
 * A suite's agreement tally: compared/agreed per kind, and what compared nothing, per why; printed
 * as one line ("conformance tally (NAME): kind agreed/compared, …, why N not compared").
 */
export class Tally {
  private readonly compared: Record<string, { compared: number; agreed: number }> = {};
  private readonly nothing: Record<string, number> = {};
  count(kind: string, agreed: boolean): void {
    const t = (this.compared[kind] ??= { compared: 0, agreed: 0 });
    t.compared++;
    if (agreed) t.agreed++;
  }
  notCompared(why: string): void {
    this.nothing[why] = (this.nothing[why] ?? 0) + 1;
  }
  /** The line, or undefined when nothing was counted. */
  line(name: string): string | undefined {
    const parts = [...Object.entries(this.compared).map(([k, t]) => `${k} ${t.agreed}/${t.compared}`), ...Object.entries(this.nothing).map(([k, n]) => `${k} ${n} not compared`)];
    return parts.length === 0 ? undefined : `conformance tally (${name}): ${parts.join(", ")}`;
  }
}

/**
 * Deletes the objects of every served version of every installed CRD, namespace by namespace. The
 * harness server runs no CRD finalizer: a deleted CRD's objects stay in etcd, and a CRD of the same
 * name installed later may then never answer the collection DELETE or list them cleanly (seen on
 * 1.37: a suite's cases compared nothing).
 */
async function deleteAllObjects(h: Harness): Promise<void> {
  const list = await send(h, "GET", CRD_API);
  if (list.status !== 200) throw new Error(`GET ${CRD_API}: ${list.status} ${JSON.stringify(list.body)}`);
  for (const crd of (list.body.items ?? []) as any[]) {
    const plural = crd.spec?.names?.plural;
    for (const v of (crd.spec?.versions ?? []) as any[]) {
      if (v.served !== true) continue;
      const base = `/apis/${crd.spec.group}/${v.name}`;
      // one served version reaches every object of the resource
      if (crd.spec.scope === "Cluster") {
        if ((await send(h, "DELETE", `${base}/${plural}`)).status === 200) break;
        continue;
      }
      // a namespaced kind has no collection DELETE across namespaces: list, then delete per namespace
      const objs = await send(h, "GET", `${base}/${plural}`);
      if (objs.status !== 200) continue;
      const namespaces = new Set<string>(((objs.body?.items ?? []) as any[]).map((o) => String(o.metadata?.namespace ?? "default")));
      for (const ns of namespaces) await send(h, "DELETE", `${base}/namespaces/${encodeURIComponent(ns)}/${plural}`);
      break;
    }
  }
}

/** Deletes every CRD, after its objects (deleteAllObjects), and waits until none is left. */
export async function deleteAllCRDs(h: Harness, timeoutMs = 60_000): Promise<void> {
  await deleteAllObjects(h);
  const del = await send(h, "DELETE", CRD_API);
  if (del.status !== 200) throw new Error(`DELETE ${CRD_API}: ${del.status} ${JSON.stringify(del.body)}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await h.request("GET", CRD_API);
    if (list.status !== 200) throw new Error(`GET ${CRD_API}: ${list.status} ${JSON.stringify(list.body)}`);
    const items: Array<{ metadata: { name: string } }> = list.body.items ?? [];
    if (items.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`CRDs still present after ${timeoutMs}ms: ${items.map((i) => i.metadata.name).join(", ")}`);
    }
    await sleep(100);
  }
}

/**
 * Polls GET of the CRD until the predicate holds for its status condition of
 * the given type (undefined while the condition is absent); resolves to that
 * condition. Throws after timeoutMs with the last conditions seen.
 */
export async function waitForCondition(
  h: Harness,
  crdName: string,
  type: string,
  predicate: (cond: Condition | undefined, crd: any) => boolean,
  timeoutMs = 30_000,
): Promise<Condition | undefined> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  for (;;) {
    const r = await getCRD(h, crdName);
    if (r.status === 200) {
      last = r.body;
      const conds: Condition[] = r.body?.status?.conditions ?? [];
      const cond = conds.find((c) => c.type === type);
      if (predicate(cond, r.body)) return cond;
    } else {
      last = r;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `CRD ${crdName}: condition ${type} not as expected after ${timeoutMs}ms; last: ${JSON.stringify(last?.status ?? last)}`,
      );
    }
    await sleep(100);
  }
}

/** Waits until the CRD has the condition with status "True" (e.g. Established, NamesAccepted). */
export function waitForConditionTrue(h: Harness, crdName: string, type: string, timeoutMs = 30_000): Promise<Condition | undefined> {
  return waitForCondition(h, crdName, type, (c) => c?.status === "True", timeoutMs);
}
