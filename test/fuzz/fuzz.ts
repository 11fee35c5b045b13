/**
 * Structure-aware fuzzing of `lint` and `default`: fixtures and ../shared/corpus manifests are
 * mutated (keys deleted or duplicated, types swapped, nulls, huge strings, deep nesting, random
 * unicode, invalid UTF-8, tabs, BOM, CRLF, truncation, aliases) and run in-process. Property: no
 * uncaught exception or internal error, every run ends within a bound with findings or an input
 * error that has a file, line and column, and the exit code agrees with what was found.
 */
import fc from 'fast-check';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { runDefault } from '../../src/cli/default-command.js';
import { jsonText } from '../../src/core/json-text.js';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { buildCrd, isCrdManifest, type Crd } from '../../src/crd/model.js';
import { parseFile } from '../../src/manifest/parse.js';
import { blockReads } from '../../src/manifest/fast.js';
import { yamlFiles } from '../helpers/files.js';
import { CORPUS, HAVE_CORPUS } from '../helpers/corpus.js';
import { compareParse } from '../helpers/compare-parse.js';
import { runCli, STACK_FRAME, type JsonOutput } from './run-cli.js';
import { cel } from '../helpers/cel.js';

const ROOT = join(import.meta.dirname, '..', '..');

export interface Seed {
  readonly name: string;
  readonly text: string;
  /** A CRD file for `default --crd` (the seed's own directory or corpus project). */
  readonly crd: string | undefined;
}

/** Seeds larger than this are left out: a structural edit re-serializes its seed. */
const SEED_BYTES = 24 * 1024;

/** Fixtures, and corpus CRDs under SEED_BYTES with the samples of their project. */
export function seeds(): Seed[] {
  const out: Seed[] = [];
  for (const f of yamlFiles(join(ROOT, 'fixtures'))) {
    if (statSync(f).size > SEED_BYTES) continue;
    const crd = join(dirname(f), 'crd.yaml');
    out.push({ name: f.slice(ROOT.length + 1), text: readFileSync(f, 'utf8'), crd: exists(crd) ? crd : undefined });
  }
  if (HAVE_CORPUS) {
    for (const f of yamlFiles(join(CORPUS, 'crds'))) {
      if (statSync(f).size > SEED_BYTES) continue;
      out.push({ name: f.slice(CORPUS.length + 1), text: readFileSync(f, 'utf8'), crd: undefined });
    }
    for (const f of yamlFiles(join(CORPUS, 'samples'))) {
      const text = readFileSync(f, 'utf8');
      out.push({ name: f.slice(CORPUS.length + 1), text, crd: crdFileFor(text, join(CORPUS, 'crds', f.split('/').at(-2)!)) });
    }
  }
  return out;
}

/** The corpus CRD file that defines the first kind of a sample (one file: re-reading a project per case is slow). */
function crdFileFor(sample: string, project: string): string | undefined {
  const kind = /^kind:[ \t]*(\w+)/m.exec(sample)?.[1];
  if (!kind || !exists(project)) return undefined;
  const re = new RegExp(`^\\s+kind:[ \\t]*${kind}[ \\t]*$`, 'm');
  return yamlFiles(project).find((f) => statSync(f).size <= 128 * 1024 && re.test(readFileSync(f, 'utf8')));
}

const builtCrds = new Map<string, readonly Crd[]>();

/**
 * The CRDs of a seed's CRD file, read and built once: `default` gets them as --crd would give them,
 * without re-reading the same file for every case (not what is under test).
 */
export function crdsOf(seed: Seed): readonly Crd[] {
  if (seed.crd === undefined) return [];
  let crds = builtCrds.get(seed.crd);
  if (!crds) {
    const file = { path: seed.crd, text: readFileSync(seed.crd, 'utf8') };
    crds = parseFile(file)
      .flatMap((d) => d.manifests)
      .filter(isCrdManifest)
      .map((m) => buildCrd(m, DEFAULT_KUBE_VERSION, cel));
    builtCrds.set(seed.crd, crds);
  }
  return crds;
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------------------------------

type StructOp = 'delete' | 'set' | 'wrap-list' | 'wrap-map' | 'to-string' | 'rename' | 'clone-sibling';
interface StructMutation {
  readonly kind: 'struct';
  readonly doc: number;
  readonly path: readonly number[];
  readonly op: StructOp;
  readonly value: unknown;
}
type TextOp = 'tab' | 'bom' | 'crlf' | 'truncate' | 'insert' | 'invalid-utf8' | 'dup-line' | 'delete-line' | 'separator' | 'indent' | 'alias' | 'deep';
interface TextMutation {
  readonly kind: 'text';
  readonly op: TextOp;
  readonly at: number;
  readonly text: string;
  readonly n: number;
}
export type Mutation = StructMutation | TextMutation;

const deepValue = fc.integer({ min: 20, max: 1200 }).map((n) => {
  let v: unknown = 'leaf';
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
});

const valueArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  // written as their digits: int64 bounds (exact), 2^53 + 1, beyond int64 and uint64 (float64)
  fc.constantFrom(9223372036854775807n, -9223372036854775808n, 9007199254740993n, 9223372036854775808n, 99999999999999999999n, 18446744073709551615n),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', '*', '^(a+)+$', 'x-kubernetes-int-or-string', 'object', 'array', 'integer', '1e400', '.inf', '~', 'yes', '2024-01-01'),
  fc.integer({ min: 1, max: 100_000 }).map((n) => 'x'.repeat(n)),
  fc.jsonValue({ maxDepth: 4 }),
  { weight: 1, arbitrary: deepValue },
);

const structArb: fc.Arbitrary<StructMutation> = fc.record({
  kind: fc.constant('struct' as const),
  doc: fc.nat(),
  path: fc.array(fc.nat(), { maxLength: 14 }),
  op: fc.constantFrom<StructOp>('delete', 'set', 'set', 'wrap-list', 'wrap-map', 'to-string', 'rename', 'clone-sibling'),
  value: valueArb,
});

const textArb: fc.Arbitrary<TextMutation> = fc.record({
  kind: fc.constant('text' as const),
  op: fc.constantFrom<TextOp>('tab', 'bom', 'crlf', 'truncate', 'insert', 'invalid-utf8', 'dup-line', 'delete-line', 'separator', 'indent', 'alias', 'deep'),
  at: fc.nat(),
  text: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'grapheme-ascii', maxLength: 12 })),
  // a count: nesting depth for `deep` (mostly around the parser's bound of 1000 levels, sometimes far
  // beyond it: those all take the same too-deep path), a choice for the other operations
  n: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 1_100 }) }, { weight: 1, arbitrary: fc.integer({ min: 1_100, max: 12_000 }) }),
});

export const mutationsArb = fc.array(fc.oneof({ weight: 3, arbitrary: structArb }, { weight: 2, arbitrary: textArb }), { minLength: 1, maxLength: 4 });

/**
 * Structural edits first, on the seed's documents (parsed once for all cases; edits copy what they
 * change), serialized once; then the textual edits, in order, so that a BOM, CRLF or tab survives.
 */
export function mutate(text: string, muts: readonly Mutation[]): string {
  let out = text;
  const struct = muts.filter((m): m is StructMutation => m.kind === 'struct');
  const seedDocs = struct.length > 0 ? documents(text) : undefined;
  if (seedDocs !== undefined) {
    const docs = [...seedDocs];
    for (const m of struct) {
      const i = m.doc % docs.length;
      docs[i] = edit(docs[i], m.path, m);
    }
    out = serialize(docs) ?? out;
  }
  for (const m of muts) if (m.kind === 'text') out = mutateText(out, m);
  return out;
}

const parsedSeeds = new Map<string, readonly unknown[] | undefined>();

/** The documents of a seed as values (parsed once); undefined when it does not parse. */
function documents(text: string): readonly unknown[] | undefined {
  if (parsedSeeds.has(text)) return parsedSeeds.get(text);
  let values: unknown[] | undefined;
  try {
    const docs = parseAllDocuments(text, { version: '1.1', logLevel: 'silent' } as never);
    values = Array.isArray(docs) && docs.length > 0 ? docs.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown) : undefined;
  } catch {
    values = undefined;
  }
  parsedSeeds.set(text, values);
  return values;
}

/** Block style YAML; flow style (JSON) for nesting the YAML serializer cannot take. */
function serialize(docs: readonly unknown[]): string | undefined {
  try {
    return docs.map((v) => (depth(v, BLOCK_DEPTH) ? stringify(v, { aliasDuplicateObjects: false, lineWidth: 0 }) : `${jsonText(v)}\n`)).join('---\n');
  } catch {
    try {
      return docs.map((v) => jsonText(v)).join('\n---\n');
    } catch {
      return undefined;
    }
  }
}

/** Deeper than this, the yaml serializer overflows the stack (after quadratic work): flow style. */
const BLOCK_DEPTH = 300;

/** true when `v` is nested at most `max` levels. */
function depth(v: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    if (n === null || typeof n !== 'object') continue;
    if (d > max) return false;
    for (const c of Array.isArray(n) ? n : Object.values(n)) stack.push([c, d + 1]);
  }
  return true;
}

/** Walks `path` (indices into keys or items) and applies the operation at the node reached. */
function edit(v: unknown, path: readonly number[], m: StructMutation): unknown {
  if (path.length > 0 && v !== null && typeof v === 'object') {
    const [h, ...rest] = path as [number, ...number[]];
    if (Array.isArray(v)) {
      if (v.length === 0) return apply(v, m);
      const copy = [...v];
      const j = h % v.length;
      if (rest.length === 0 && m.op === 'delete') copy.splice(j, 1);
      else if (rest.length === 0 && m.op === 'clone-sibling') copy.push(copy[j]);
      else copy[j] = edit(v[j], rest, m);
      return copy;
    }
    const keys = Object.keys(v);
    if (keys.length === 0) return apply(v, m);
    const k = keys[h % keys.length]!;
    const copy: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    if (rest.length === 0 && m.op === 'delete') delete copy[k];
    else if (rest.length === 0 && m.op === 'rename') {
      copy[`${k}${String(m.value).slice(0, 8)}`] = copy[k];
      delete copy[k];
    } else if (rest.length === 0 && m.op === 'clone-sibling') copy[`${k}-copy`] = copy[k];
    else copy[k] = edit((v as Record<string, unknown>)[k], rest, m);
    return copy;
  }
  return apply(v, m);
}

function apply(v: unknown, m: StructMutation): unknown {
  switch (m.op) {
    case 'wrap-list':
      return [v];
    case 'wrap-map':
      return { [String(m.value).slice(0, 10) || 'k']: v };
    case 'to-string':
      return typeof v === 'string' ? 0 : jsonText(v) ?? 'null';
    default:
      return m.value;
  }
}

function mutateText(text: string, m: TextMutation): string {
  const at = text.length === 0 ? 0 : m.at % (text.length + 1);
  const lines = text.split('\n');
  const ln = m.at % Math.max(lines.length, 1);
  switch (m.op) {
    case 'tab':
      return text.slice(0, at) + '\t' + text.slice(at);
    case 'bom':
      return '\ufeff' + text;
    case 'crlf':
      return text.replace(/\n/g, '\r\n');
    case 'truncate':
      return text.slice(0, at);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'invalid-utf8':
      // what the decoder makes of invalid bytes (U+FFFD), lone surrogates and NUL
      return text.slice(0, at) + ['\ufffd', '\ud800', '\udc00x', '\u0000', '\u0085', '\u2028'][m.n % 6] + text.slice(at);
    case 'dup-line':
      lines.splice(ln, 0, lines[ln] ?? '');
      return lines.join('\n');
    case 'delete-line':
      lines.splice(ln, 1);
      return lines.join('\n');
    case 'separator':
      lines.splice(ln, 0, ['---', '...', '--- |', '%YAML 1.1', '--- !!str'][m.n % 5]!);
      return lines.join('\n');
    case 'indent':
      lines[ln] = ' '.repeat(m.n % 7) + (lines[ln] ?? '');
      return lines.join('\n');
    case 'alias':
      return `${text}\n---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *unknown${m.n % 2 ? '' : 'x'}]\n`;
    case 'deep': {
      const n = m.n;
      const style = m.at % 3;
      const deep = style === 0 ? '['.repeat(n) + ']'.repeat(n) : style === 1 ? '{a: '.repeat(n) + '1' + '}'.repeat(n) : '\n' + '- '.repeat(n) + '1';
      return `${text.slice(0, at)}${deep}${text.slice(at)}`;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// The property
// ---------------------------------------------------------------------------------------------------

/** Each case must end within this bound (in-process runs cannot be pre-empted: checked afterwards). */
export const CASE_BOUND_MS = 10_000;

export interface CaseStats {
  slowestMs: number;
  slowest: string;
  /** The input of the slowest run. */
  slowestInput: string;
  lintMs: number;
  defaultMs: number;
  /** Cases the fast YAML path read (and that agreed with the full path). */
  fastCases: number;
  /** Of those, cases where the one-pass block reader (src/manifest/block-reader.ts) read a document. */
  blockCases: number;
}

/**
 * Runs lint and default on one input; throws (a property failure) when an expectation does not hold.
 * `default` gets the seed's CRDs built once (as `--crd <seed.crd>` would give them).
 */
export async function checkCase(text: string, seed: Seed, stats: CaseStats): Promise<void> {
  // the fast YAML path (src/manifest/fast.ts) must read exactly what the full path reads, positions too
  const blockBefore = blockReads;
  const cmp = compareParse({ path: '-', text }, { maxPaths: 30 });
  if (cmp.differences.length > 0) throw new Error(`fast and full YAML reading differ on a mutant of ${seed.name}:\n${cmp.differences.slice(0, 3).join('\n')}`);
  if (cmp.fast) stats.fastCases++;
  if (cmp.fast && blockReads > blockBefore) stats.blockCases++;
  // a mutant may delete every document: that is not the input failure the check below looks for
  const lint = await runCli(['lint', '-o', 'json', '--allow-empty', '-'], text);
  noCrash(lint, 'lint', seed.name);
  const out = JSON.parse(lint.stdout) as JsonOutput;
  for (const f of out.findings) {
    if (f.file !== '-' || !(f.line >= 1) || !(f.column >= 1)) throw new Error(`lint finding without a position: ${JSON.stringify(f)}`);
  }
  const errors = out.findings.filter((f) => f.severity === 'error').length;
  // the suppression comments of an unreadable file are still reported (test/unit/suppress.test.ts)
  const onlyParse = out.findings.every((f) => f.ruleId === 'parse' || f.ruleId === 'suppression');
  if (lint.code === 2 && !(onlyParse && out.findings.some((f) => f.fatal)))
    throw new Error(`lint exited 2 although something was checked: ${lint.stdout.slice(0, 500)}`);
  if (lint.code !== 2 && lint.code !== (errors > 0 ? 1 : 0)) throw new Error(`lint exit ${lint.code} with ${errors} errors`);
  track(stats, lint.ms, `lint ${seed.name}`, text);
  stats.lintMs += lint.ms;

  const crds = crdsOf(seed);
  const def = await runCli(['default', '--no-explain', '-f', '-'], text, (io) => ({ default: (o) => runDefault(o, io, crds) }));
  const where = `${seed.name}${seed.crd ? ` (--crd ${seed.crd})` : ''}`;
  noCrash(def, 'default', where);
  if (def.code === 2 && !/^error: |\d+:\d+ +error /m.test(def.stderr)) throw new Error(`default exited 2 without an input error: ${def.stderr.slice(0, 500)}`);
  // every reported problem line carries a line and column
  for (const l of def.stderr.split('\n'))
    if (/^\s+\d+:\d+\s+error\s/.test(l) === false && /^\s+error\s/.test(l)) throw new Error(`default error without a position: ${l}`);
  track(stats, def.ms, `default ${where}`, text);
  stats.defaultMs += def.ms;
}

function noCrash(r: { code: number; stdout: string; stderr: string; ms: number }, cmd: string, where: string): void {
  if (/internal error/.test(r.stderr) || STACK_FRAME.test(r.stderr) || STACK_FRAME.test(r.stdout))
    throw new Error(`${cmd} crashed on a mutant of ${where}: ${r.stderr.slice(0, 800)}`);
  if (![0, 1, 2].includes(r.code)) throw new Error(`${cmd} exit code ${r.code}`);
  if (r.ms > CASE_BOUND_MS) throw new Error(`${cmd} took ${Math.round(r.ms)} ms on a mutant of ${where}`);
}

function track(stats: CaseStats, ms: number, what: string, input: string): void {
  if (ms > stats.slowestMs) {
    stats.slowestMs = ms;
    stats.slowest = what;
    stats.slowestInput = input;
  }
}

export interface FuzzReport {
  readonly seed: number;
  readonly runs: number;
  readonly ms: number;
  readonly stats: CaseStats;
}

/**
 * `last`: a file that holds the input of the case being run (written before it runs), so that a case
 * that kills the process (out of memory) can be replayed: `npm run fuzz` sets it.
 */
export async function fuzz(runs: number, seed: number, last?: string): Promise<FuzzReport> {
  const all = seeds();
  let n = 0;
  const stats: CaseStats = { slowestMs: 0, slowest: '', slowestInput: '', lintMs: 0, defaultMs: 0, fastCases: 0, blockCases: 0 };
  // yaml's parser reads process.env.LOG_TOKENS (a debug switch) for every token, a call into the
  // runtime each time; the product's bundle has that read compiled out (scripts/build.mjs). A plain
  // object for the duration makes it as cheap here.
  const env = process.env;
  process.env = { ...env };
  const t0 = performance.now();
  try {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: all.length - 1 }), mutationsArb, async (i, muts) => {
        // every case resolves in microtasks: let the event loop run now and then (vitest's worker
        // answers its RPC there; a 100,000-case run otherwise ends with "Timeout calling onTaskUpdate")
        if (++n % 200 === 0) await new Promise((r) => setImmediate(r));
        const s = all[i]!;
        const text = mutate(s.text, muts);
        if (last !== undefined) writeFileSync(last, `# case ${n}, seed file ${s.name}${s.crd ? `, --crd ${s.crd}` : ''}\n${text}`);
        await checkCase(text, s, stats);
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );
  } finally {
    process.env = env;
  }
  return { seed, runs, ms: performance.now() - t0, stats };
}
