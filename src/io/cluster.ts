/**
 * Read-only access to a live cluster: the kubeconfig (kubectl's files, merge and context rules),
 * credentials through @kubernetes/client-node (tokens, client certificates, exec and auth-provider
 * plugins), and one request function that only ever sends GET. Loaded with `await import()` from
 * the CLI only when --cluster is given; @kubernetes/client-node is imported lazily inside connect().
 *
 * Every failure is a ClusterError with one line: what was being read, why it failed, where.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { delimiter, join } from 'node:path';
import { formatDuration } from '../core/duration.js';
import { ClusterError, InternalError } from '../core/errors.js';
import { importClientNode } from './lazy-deps.js';
import { goJsonDecode } from '../go/json.js';

interface ClusterOptions {
  /** --kubeconfig: one file, used alone (as kubectl does). */
  readonly kubeconfig?: string | undefined;
  /** --context: instead of the kubeconfig's current-context. */
  readonly context?: string | undefined;
  /** -n/--namespace: instead of the context's namespace ("default" when neither). */
  readonly namespace?: string | undefined;
  /** Bound on each request, connection to last byte (--request-timeout). */
  readonly requestTimeoutMs: number;
  /** Page size of list requests (limit/continue). */
  readonly chunkSize: number;
}

/** What a request reads, for messages: `list customresourcedefinitions.apiextensions.k8s.io`. */
export interface Access {
  readonly verb: 'get' | 'list';
  readonly resource: string;
  readonly name?: string;
  readonly namespace?: string;
}

export interface Cluster {
  readonly context: string;
  readonly server: string;
  readonly namespace: string;
  /** GET a path: the parsed JSON answer; any failure (404 included) rejects with a ClusterError. */
  get(path: string, access: Access): Promise<unknown>;
  /** GET a path that may be missing: undefined on 404. */
  getOptional(path: string, access: Access): Promise<unknown>;
  /** All items of a list, page by page (limit/continue). */
  list(path: string, access: Access): Promise<Record<string, unknown>[]>;
  close(): void;
}

/** The only method a request may have: the product never writes to a cluster, not even with dryRun. */
const READ_ONLY_METHODS: ReadonlySet<string> = new Set(['GET']);

/** Larger answers are refused rather than exhausting memory. */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

export function assertReadOnly(method: string): void {
  if (!READ_ONLY_METHODS.has(method)) throw new InternalError(`refusing to send ${method}: kubectl-crdx only reads from a cluster`);
}

function describeAccess(a: Access): string {
  const ns = a.namespace !== undefined ? ` in namespace "${a.namespace}"` : '';
  return `${a.verb} ${a.resource}${a.name !== undefined ? ` "${a.name}"` : ''}${ns}`;
}

/** One line, printable, bounded: server messages can hold newlines and anything else. */
export function oneLine(s: string, max = 400): string {
  // eslint-disable-next-line no-control-regex
  const t = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

interface Env {
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The kubeconfig files kubectl would read, in order: --kubeconfig, else KUBECONFIG, else ~/.kube/config. */
function kubeconfigFiles(o: Pick<ClusterOptions, 'kubeconfig'>, { env }: Env): string[] {
  if (o.kubeconfig !== undefined && o.kubeconfig !== '') {
    if (!existsSync(o.kubeconfig)) throw new ClusterError(`kubeconfig ${o.kubeconfig} (--kubeconfig): no such file`);
    return [o.kubeconfig];
  }
  const list = env['KUBECONFIG'];
  if (list !== undefined && list !== '') {
    const files = list.split(delimiter).filter((f) => f !== '');
    // kubectl skips the files of KUBECONFIG that do not exist
    const present = files.filter((f) => existsSync(f));
    if (present.length === 0) throw new ClusterError(`no kubeconfig: none of the files of KUBECONFIG exist (${files.join(delimiter)})`);
    return present;
  }
  const home = env['HOME'] ?? env['USERPROFILE'];
  const def = home !== undefined ? join(home, '.kube', 'config') : undefined;
  if (def === undefined || !existsSync(def))
    throw new ClusterError(`no kubeconfig: ${def ?? '~/.kube/config'} does not exist (give --kubeconfig or set KUBECONFIG)`);
  return [def];
}

type ClientNode = typeof import('@kubernetes/client-node');
type KubeConfig = import('@kubernetes/client-node').KubeConfig;

/**
 * Loads and merges the files as kubectl does: for clusters, users and contexts the first file that
 * defines a name wins; the first current-context set wins. Relative paths are resolved against the
 * file that holds them.
 */
function loadKubeconfig(k8s: ClientNode, files: readonly string[]): KubeConfig {
  const clusters = new Map<string, import('@kubernetes/client-node').Cluster>();
  const users = new Map<string, import('@kubernetes/client-node').User>();
  const contexts = new Map<string, import('@kubernetes/client-node').Context>();
  let currentContext = '';
  for (const f of files) {
    const kc = new k8s.KubeConfig();
    try {
      kc.loadFromFile(f);
    } catch (e) {
      throw new ClusterError(`kubeconfig ${f}: cannot be read: ${oneLine((e as Error)?.message ?? String(e))}`);
    }
    for (const c of kc.getClusters() ?? []) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of kc.getUsers() ?? []) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of kc.getContexts() ?? []) if (!contexts.has(c.name)) contexts.set(c.name, c);
    const cur = kc.getCurrentContext();
    if (currentContext === '' && typeof cur === 'string' && cur !== '') currentContext = cur;
  }
  const merged = new k8s.KubeConfig();
  merged.loadFromOptions({ clusters: [...clusters.values()], users: [...users.values()], contexts: [...contexts.values()], currentContext });
  return merged;
}

interface Transport {
  readonly agent: http.Agent;
  readonly headers: Record<string, string>;
}

async function transportFor(kc: KubeConfig, server: URL, hasUser: boolean, where: string): Promise<Transport> {
  const opts: https.RequestOptions & { headers?: Record<string, unknown> } = {};
  try {
    if (hasUser) {
      await kc.applyToHTTPSOptions(opts);
    } else {
      // no user in the context: anonymous, but the cluster's CA and TLS settings still apply
      const cluster = kc.getCurrentCluster();
      const { readFileSync } = await import('node:fs');
      const ca = cluster?.caFile ? readFileSync(cluster.caFile) : cluster?.caData ? Buffer.from(cluster.caData, 'base64') : undefined;
      const agentOpts: https.AgentOptions = {
        ...(ca ? { ca } : {}),
        ...(cluster?.skipTLSVerify ? { rejectUnauthorized: false } : {}),
        ...(cluster?.tlsServerName ? { servername: cluster.tlsServerName } : {}),
      };
      opts.agent = server.protocol === 'http:' ? new http.Agent() : new https.Agent(agentOpts);
    }
  } catch (e) {
    throw new ClusterError(`credentials of ${where}: ${oneLine((e as Error)?.message ?? String(e))}`);
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) if (typeof v === 'string' || typeof v === 'number') headers[k] = String(v);
  if (typeof opts.auth === 'string') headers['Authorization'] = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
  const agent = opts.agent instanceof http.Agent ? opts.agent : server.protocol === 'http:' ? new http.Agent() : new https.Agent();
  return { agent, headers };
}

/**
 * The one line --cluster fails with when the cluster client is not installed: the npm package has it
 * as an optional peer dependency (54 MB that only --cluster uses), so a user installs it beside
 * kubectl-crdx (npm resolves it from the folder above the package: the global root, or the project).
 */
export const CLIENT_MISSING =
  '--cluster needs the Kubernetes client, which is not installed: npm install -g @kubernetes/client-node@^1.4.0 (or, in a project, npm install -D @kubernetes/client-node@^1.4.0)';

/** Whether an import() failed because the package itself (not one of its own imports) is not installed. */
export function isMissingPackage(e: unknown, name: string): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = String((e as Error).message);
  return message.includes(`'${name}'`) || message.includes(`"${name}"`);
}

async function loadClientNode(): Promise<ClientNode> {
  try {
    return await importClientNode();
  } catch (e) {
    if (isMissingPackage(e, '@kubernetes/client-node')) throw new ClusterError(CLIENT_MISSING);
    throw e;
  }
}

/** Reads the kubeconfig and prepares requests; does not contact the server yet. */
export async function connect(o: ClusterOptions, io: Env & { readonly userAgent: string }): Promise<Cluster> {
  // the client first: without it, nothing else can be done
  const k8s = await loadClientNode();
  const files = kubeconfigFiles(o, io);
  const kc = loadKubeconfig(k8s, files);
  const source = files.length === 1 ? `kubeconfig ${files[0]}` : `kubeconfig ${files.join(delimiter)}`;
  const contextName = o.context !== undefined && o.context !== '' ? o.context : kc.getCurrentContext();
  if (contextName === undefined || contextName === '' || contextName === null)
    throw new ClusterError(`${source} has no current-context: give --context (contexts: ${kc.getContexts().map((c) => c.name).join(', ') || 'none'})`);
  const ctx = kc.getContextObject(contextName);
  if (!ctx) throw new ClusterError(`context "${contextName}" not found in ${source} (contexts: ${kc.getContexts().map((c) => c.name).join(', ') || 'none'})`);
  kc.setCurrentContext(contextName);
  const cluster = kc.getCluster(ctx.cluster);
  if (!cluster) throw new ClusterError(`cluster "${ctx.cluster}" of context "${contextName}" not found in ${source}`);
  let server: URL;
  try {
    server = new URL(cluster.server);
  } catch {
    throw new ClusterError(`cluster "${ctx.cluster}" of context "${contextName}": server "${oneLine(String(cluster.server))}" is not a URL`);
  }
  if (server.protocol !== 'https:' && server.protocol !== 'http:')
    throw new ClusterError(`cluster "${ctx.cluster}" of context "${contextName}": server ${server.href} is neither https nor http`);
  const hasUser = ctx.user !== undefined && ctx.user !== '' && kc.getUser(ctx.user) !== null;
  const where = `context "${contextName}"`;
  const t = await transportFor(kc, server, hasUser, where);
  const namespace = o.namespace !== undefined && o.namespace !== '' ? o.namespace : ctx.namespace !== undefined && ctx.namespace !== '' ? ctx.namespace : 'default';
  const base = server.href.replace(/\/+$/, '');
  const userName = hasUser ? ctx.user : undefined;

  const fail = (access: Access, why: string): ClusterError =>
    new ClusterError(`cannot ${describeAccess(access)}: ${why} (server ${base}, ${where})`);

  const send = (method: string, path: string, access: Access): Promise<{ status: number; text: string }> => {
    assertReadOnly(method);
    const url = new URL(base + path);
    const mod = url.protocol === 'http:' ? http : https;
    return new Promise((resolve, reject) => {
      let settled = false;
      const done = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        f();
      };
      const req = mod.request(
        url,
        {
          method,
          agent: t.agent,
          headers: { ...t.headers, Accept: 'application/json', 'User-Agent': io.userAgent },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_ANSWER_BYTES) {
              req.destroy();
              done(() => reject(fail(access, `the answer is larger than ${MAX_ANSWER_BYTES} bytes`)));
              return;
            }
            chunks.push(c);
          });
          res.on('error', (e) => done(() => reject(fail(access, networkReason(e)))));
          res.on('aborted', () => done(() => reject(fail(access, 'the connection was closed before the answer was complete'))));
          res.on('end', () => {
            if (!res.complete) {
              done(() => reject(fail(access, 'the connection was closed before the answer was complete')));
              return;
            }
            done(() => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          });
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        done(() => reject(fail(access, `no answer within ${formatDuration(o.requestTimeoutMs)} (--request-timeout)`)));
      }, o.requestTimeoutMs);
      req.on('error', (e) => done(() => reject(fail(access, networkReason(e)))));
      req.end();
    });
  };

  const statusMessage = (text: string): string => {
    try {
      const v = JSON.parse(text) as { message?: unknown };
      if (typeof v?.message === 'string' && v.message !== '') return oneLine(v.message);
    } catch {
      // not a Status
    }
    return text.trim() === '' ? '' : oneLine(text, 200);
  };

  const request = async (path: string, access: Access, allow404: boolean): Promise<unknown> => {
    const r = await send('GET', path, access);
    if (r.status === 404 && allow404) return undefined;
    if (r.status < 200 || r.status > 299) {
      const msg = statusMessage(r.text);
      const reason = http.STATUS_CODES[r.status] ?? 'error';
      switch (r.status) {
        case 401:
          throw fail(access, `unauthorized (401): the server did not accept the credentials${userName !== undefined ? ` of user "${userName}"` : ' (the context has no user)'}${msg !== '' ? `: ${msg}` : ''}`);
        case 403:
          throw fail(access, `forbidden (403)${msg !== '' ? `: ${msg}` : ''}`);
        case 404:
          throw fail(access, `not found (404)${msg !== '' ? `: ${msg}` : ''}`);
        default:
          throw fail(access, `the server answered ${r.status} ${reason}${msg !== '' ? `: ${msg}` : ''}`);
      }
    }
    try {
      return goJsonDecode(r.text);
    } catch (e) {
      throw fail(access, `the server's answer is not valid JSON (${oneLine((e as Error).message, 120)})`);
    }
  };

  return {
    context: contextName,
    server: base,
    namespace,
    get: (path, access) => request(path, access, false),
    getOptional: (path, access) => request(path, access, true),
    async list(path, access) {
      const items: Record<string, unknown>[] = [];
      let cont = '';
      const seen = new Set<string>();
      for (;;) {
        const sep = path.includes('?') ? '&' : '?';
        const q = `limit=${o.chunkSize}${cont !== '' ? `&continue=${encodeURIComponent(cont)}` : ''}`;
        const page = await request(`${path}${sep}${q}`, access, false);
        if (typeof page !== 'object' || page === null || !Array.isArray((page as { items?: unknown }).items))
          throw fail(access, 'the server\'s answer is not a list (no items)');
        for (const it of (page as { items: unknown[] }).items) if (typeof it === 'object' && it !== null && !Array.isArray(it)) items.push(it as Record<string, unknown>);
        const next = (page as { metadata?: { continue?: unknown } }).metadata?.continue;
        if (typeof next !== 'string' || next === '') return items;
        // a server that hands out the same token again would make this loop forever
        if (seen.has(next)) throw fail(access, 'the server repeated a continue token');
        seen.add(next);
        cont = next;
      }
    },
    close() {
      t.agent.destroy();
    },
  };
}

/** The reason of a network or TLS failure, in words. */
function networkReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { reason?: string };
  const code = err?.code ?? '';
  const msg = oneLine(err?.message ?? String(e), 200);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running?)';
    case 'ECONNRESET':
      return 'the connection was reset by the server';
    case 'EPIPE':
      return 'the connection was closed by the server';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the server's host name does not resolve (${msg})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
      return `the server cannot be reached (${msg})`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'CERT_SIGNATURE_FAILURE':
      return `TLS: the server's certificate is not signed by a trusted CA (${msg}); check certificate-authority(-data) of the cluster in the kubeconfig`;
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return `TLS: the server's certificate is not valid now (${msg})`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS: the server's certificate is not valid for its address (${msg}); tls-server-name in the kubeconfig may help`;
    default:
      if (code.startsWith('ERR_SSL') || code === 'EPROTO' || /SSL|TLS|certificate/i.test(msg)) return `TLS: ${msg}`;
      if (msg === 'socket hang up') return 'the connection was closed by the server before it answered';
      return msg;
  }
}
