import { Lexer, LineCounter, isMap, isPair, isScalar, isSeq, parseAllDocuments, parseDocument, type Document, type Node } from 'yaml';
import { isRecord, type JsonPath, type Position } from '../core/types.js';
import { fastDocuments, samePath } from './fast.js';
import { fastLocator, type FastLocator } from './fast-locate.js';
import { relaxQuotedIndentation } from './relax.js';
import { countLines, splitDocuments, type Chunk } from './split.js';
import { crdNumbers } from './crd-numbers.js';
import { INF_NAN, floatAsSent, goYamlScalar, int64Literal, numberKey } from './yaml-numbers.js';

export interface SourceFile {
  /** As the user gave it; `-` for stdin. */
  readonly path: string;
  readonly text: string;
}

/** A problem found while reading a document: a YAML error, a non-object document. */
interface ParseProblem {
  readonly code: 'yaml-syntax' | 'yaml-duplicate-key' | 'yaml-map-key' | 'yaml-json' | 'yaml-alias' | 'not-an-object' | 'too-deep';
  readonly message: string;
  readonly position: Position;
  /** true when the document could not be read at all. */
  readonly fatal: boolean;
  /**
   * 'warning' when kubectl reads the document anyway (a duplicate key); 'info' for a document that
   * is skipped as no Kubernetes object (a list: a Kustomize patch); default 'error'.
   */
  readonly severity?: 'warning' | 'info';
}

/** One object of the input: a YAML document, or one item of a `kind: List`. */
export interface Manifest {
  readonly file: SourceFile;
  readonly docIndex: number;
  /** Path of this object inside its document ([] or ['items', i]). */
  readonly base: JsonPath;
  readonly value: Record<string, unknown>;
  readonly apiVersion: string | undefined;
  readonly kind: string | undefined;
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  /** Only apiVersion and kind were read (a large document that is neither a CRD nor a known custom resource). */
  readonly partial?: true;
  /** Position of a path relative to this object; falls back to the nearest existing ancestor. */
  locate(path: JsonPath, at?: 'key' | 'value'): Position;
}

export interface ParsedDocument {
  readonly file: SourceFile;
  readonly docIndex: number;
  readonly problems: readonly ParseProblem[];
  readonly manifests: readonly Manifest[];
  /** true when the document was empty (a lone `---`, comments only). */
  readonly empty: boolean;
  /** A large document read only for its apiVersion and kind: reads it in full. */
  readonly deferred?: () => ParsedDocument[];
}

/** Bounds that keep hostile input from exhausting memory or the stack. */
const MAX_ALIAS_COUNT = 1000;
export const MAX_DEPTH = 1000;
/**
 * Files at least this large are split into documents on their `---` lines (as kubectl's YAMLReader
 * splits a stream) and read one document at a time; documents at least this large that are neither
 * CRDs nor `*List`s are only read in full when a CRD of the input defines their kind (see `deferred`).
 */
export const LARGE_BYTES = 1024 * 1024;

/** Line and column of an offset; a LineCounter, or one shifted to where a document starts in its file. */
interface Lines {
  linePos(offset: number): { line: number; col: number };
}

interface ParseOptions {
  /** Split into documents textually and defer large non-CRD documents even below LARGE_BYTES (tests). */
  readonly largeBytes?: number;
  /** Values from js-yaml's event parser where it reads the text as the full path would (fast.ts); default true. */
  readonly fast?: boolean;
}

/** CRDX_FAST_YAML=0 turns the fast path off (to compare, or to rule it out). */
const FAST_DEFAULT = process.env['CRDX_FAST_YAML'] !== '0';

export function parseFile(file: SourceFile, opts: ParseOptions = {}): ParsedDocument[] {
  const text = file.text.charCodeAt(0) === 0xfeff ? file.text.slice(1) : file.text;
  const large = opts.largeBytes ?? LARGE_BYTES;
  const fast = opts.fast ?? FAST_DEFAULT;
  if (text.length >= large) return parseChunked(file, text, large, fast);
  // the yaml lexer recurses on nesting: hostile depth overflows the stack, then each document is read alone
  return parseText(file, text, 0, 0, fast) ?? parseChunked(file, text, Infinity, fast);
}

const YAML_OPTS = { version: '1.1', uniqueKeys: false, prettyErrors: false, strict: false, logLevel: 'error' } as const;

/**
 * More than MAX_DEPTH compact sequence entries on one line (`- - - … x`): the yaml lexer takes
 * quadratic time on them before it overflows the stack, so such text is refused before it is lexed.
 */
const COMPACT_NESTING = new RegExp(`(?:-[ \\t]+){${MAX_DEPTH}}`);

/**
 * Flow collections nested deeper than this are not handed to the yaml package: from about 800 levels
 * it reports errors of its own, and from about 950 its parser can kill the process (V8 fails to compile
 * a regular expression that deep in the stack: "RegExpCompiler Allocation failed").
 */
const MAX_FLOW_DEPTH = 500;

/** Whether a text has more than MAX_DEPTH compact sequence entries on one line (not to be lexed). */
export function compactNesting(text: string): boolean {
  return COMPACT_NESTING.test(text);
}

/** The 1-based line of hostile nesting in a text, if any: compact sequence entries, or flow collections. */
function hostileNestingLine(text: string): number | undefined {
  const m = COMPACT_NESTING.exec(text);
  return m ? countLines(text.slice(0, m.index)) + 1 : deepFlowLine(text);
}

/** The 1-based line where flow collections nest deeper than MAX_FLOW_DEPTH (the yaml lexer, which does not recurse, tells). */
function deepFlowLine(text: string): number | undefined {
  // fewer brackets in all than the limit: nothing nests that deep
  let opening = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) opening++;
  }
  if (opening <= MAX_FLOW_DEPTH) return undefined;
  let depth = 0;
  let line = 1;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      if (++depth > MAX_FLOW_DEPTH) return line;
    } else if (token === ']' || token === '}') depth = Math.max(0, depth - 1);
    else line += countLines(token);
  }
  return undefined;
}

/** Parses a whole stream; undefined when the parser itself overflowed the stack (or would). */
function parseText(file: SourceFile, text: string, lineOffset: number, firstDoc: number, fast: boolean): ParsedDocument[] | undefined {
  return (fast ? fastText(file, text, lineOffset, firstDoc) : undefined) ?? fullText(file, text, lineOffset, firstDoc);
}

/**
 * The fast path (fast.ts): values from js-yaml's events; a document is read by the full path only when a
 * position in it is asked for. undefined when the full path must read the text.
 */
function fastText(file: SourceFile, text: string, lineOffset: number, firstDoc: number): ParsedDocument[] | undefined {
  const docs = fastDocuments(text, plainScalarValue, MAX_DEPTH);
  if (docs === undefined) return undefined;
  const out: ParsedDocument[] = [];
  for (const [i, d] of docs.entries()) {
    const docIndex = firstDoc + i;
    if (d.value === undefined) {
      out.push({ file, docIndex, problems: [], manifests: [], empty: true });
      continue;
    }
    let full: ParsedDocument | undefined | null = null;
    const fullDoc = (): ParsedDocument | undefined =>
      full === null ? (full = fullText(file, d.chunk.text, lineOffset + d.chunk.lineOffset, docIndex)?.find((x) => x.docIndex === docIndex)) : full;
    let locator: FastLocator | undefined;
    const start: Position = { line: lineOffset + d.chunk.lineOffset + 1, column: 1 };
    const manifest = (base: JsonPath, value: Record<string, unknown>): Manifest =>
      manifestOf(file, docIndex, base, value, (path, at) => {
        // js-yaml's offsets where they give the yaml package's ranges (fast-locate.ts), else the yaml package
        locator ??= fastLocator(d.chunk.text, lineOffset + d.chunk.lineOffset, MAX_DEPTH);
        const p = locator([...base, ...path], at);
        if (p !== undefined) {
          locateCounts.fast++;
          return p;
        }
        locateCounts.yaml++;
        const m = fullDoc()?.manifests.find((x) => samePath(x.base, base));
        return m ? m.locate(path, at) : start;
      });
    const manifests: Manifest[] = [];
    if (isListKind(d.value)) {
      const items = d.value['items'] as unknown[];
      for (const [j, item] of items.entries()) {
        if (!isRecord(item)) return undefined; // the full path reports it
        manifests.push(manifest(['items', j], item));
      }
    } else manifests.push(manifest([], d.value));
    out.push({ file, docIndex, problems: [], manifests, empty: false });
  }
  return out;
}

/** How many positions of fast-path documents came from js-yaml's offsets and how many from the yaml package (tests). */
export const locateCounts = { fast: 0, yaml: 0 };

const plainCache = new Map<string, { value: unknown } | undefined>();

/**
 * The value the full path gives a plain scalar written as `text` in value position (YAML 1.1 with
 * go-yaml's quirks, see inspect); undefined when it is not a lone plain scalar there, or when the full
 * path would report a problem or read an integer beyond 2^53.
 */
export function plainScalarValue(text: string): { value: unknown } | undefined {
  const cached = plainCache.get(text);
  if (cached !== undefined || plainCache.has(text)) return cached;
  const doc = parseDocument(text, YAML_OPTS);
  const node = doc.contents;
  let out: { value: unknown } | undefined;
  if (doc.errors.length === 0 && isScalar(node) && node.type === 'PLAIN' && node.source === text) {
    const problems: ParseProblem[] = [];
    const found = { bigint: false };
    if (inspect(node, MAX_DEPTH, problems, new LineCounter(), found) && problems.length === 0 && !found.bigint) {
      const value: unknown = doc.toJS();
      if (value instanceof Date) return { value }; // a new object each time
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out = { value };
    }
  }
  if (plainCache.size >= 4096) plainCache.clear();
  plainCache.set(text, out);
  return out;
}

function fullText(file: SourceFile, text: string, lineOffset: number, firstDoc: number): ParsedDocument[] | undefined {
  if (hostileNestingLine(text) !== undefined) return undefined;
  try {
    const lineCounter = new LineCounter();
    const docs = parseAllDocuments(text, { ...YAML_OPTS, lineCounter });
    // go-yaml tolerates under-indented continuation lines of quoted scalars: so must we
    if (Array.isArray(docs) && docs.some((d) => d.errors.length > 0)) {
      const relaxed = relaxQuotedIndentation(text);
      if (relaxed !== undefined) {
        const lc2 = new LineCounter();
        const again = parseAllDocuments(relaxed, { ...YAML_OPTS, lineCounter: lc2 });
        const before = docs.reduce((n, d) => n + d.errors.length, 0);
        if (Array.isArray(again) && again.reduce((n, d) => n + d.errors.length, 0) < before) {
          return finish(file, again, shifted(lc2, lineOffset), firstDoc);
        }
      }
    }
    return finish(file, docs, shifted(lineCounter, lineOffset), firstDoc);
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

function shifted(lc: LineCounter, lineOffset: number): Lines {
  if (lineOffset === 0) return lc;
  return {
    linePos(offset: number) {
      const p = lc.linePos(offset);
      return { line: p.line + lineOffset, col: p.col };
    },
  };
}

function parseChunked(file: SourceFile, text: string, large: number, fast: boolean): ParsedDocument[] {
  const out: ParsedDocument[] = [];
  for (const c of splitDocuments(text)) {
    const firstDoc = out.length;
    const head = c.text.length >= large ? headerOf(c.text) : undefined;
    if (head) {
      out.push(deferredDocument(file, c, firstDoc, head, fast));
      continue;
    }
    const docs = parseText(file, c.text, c.lineOffset, firstDoc, fast);
    if (docs) out.push(...docs);
    else
      out.push({
        file,
        docIndex: firstDoc,
        problems: [{ code: 'too-deep', message: 'document is nested too deeply to be read', position: { line: c.lineOffset + (hostileNestingLine(c.text) ?? 1), column: 1 }, fatal: true }],
        manifests: [],
        empty: false,
      });
  }
  return out;
}

/**
 * apiVersion and kind of a large document from its top-level lines, when it is plainly neither a CRD
 * nor a list (whose items may be anything): such documents are not read in full unless needed.
 */
function headerOf(text: string): { apiVersion: string; kind: string; line: number } | undefined {
  if (/^\.\.\.(?=[ \t\r\n]|$)/m.test(text)) return undefined; // more than one document
  const field = (name: string): { value: string; index: number } | undefined => {
    const m = new RegExp(`^${name}[ \\t]*:[ \\t]*([^\\r\\n]*)`, 'm').exec(text);
    if (!m) return undefined;
    let v = m[1]!.replace(/[ \t]+#.*$/, '').trim();
    if (/^(['"]).*\1$/.test(v)) v = v.slice(1, -1);
    return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(v) ? { value: v, index: m.index } : undefined;
  };
  const apiVersion = field('apiVersion');
  const kind = field('kind');
  if (!apiVersion || !kind) return undefined;
  if (kind.value === 'CustomResourceDefinition' || kind.value.endsWith('List')) return undefined;
  return { apiVersion: apiVersion.value, kind: kind.value, line: countLines(text.slice(0, kind.index)) + 1 };
}

function deferredDocument(file: SourceFile, c: Chunk, docIndex: number, head: { apiVersion: string; kind: string; line: number }, fast: boolean): ParsedDocument {
  const at: Position = { line: c.lineOffset + head.line, column: 1 };
  const manifest: Manifest = {
    file,
    docIndex,
    base: [],
    value: { apiVersion: head.apiVersion, kind: head.kind },
    apiVersion: head.apiVersion,
    kind: head.kind,
    name: undefined,
    namespace: undefined,
    partial: true,
    locate: () => at,
  };
  return {
    file,
    docIndex,
    problems: [],
    manifests: [manifest],
    empty: false,
    deferred: () =>
      parseText(file, c.text, c.lineOffset, docIndex, fast) ?? [
        { file, docIndex, problems: [{ code: 'too-deep', message: 'document is nested too deeply to be read', position: at, fatal: true }], manifests: [], empty: false },
      ],
  };
}

function finish(file: SourceFile, docs: ReturnType<typeof parseAllDocuments>, lineCounter: Lines, firstDoc = 0): ParsedDocument[] {
  // an EmptyStream (nothing but comments or directives) is not an array
  if (!Array.isArray(docs)) return [];
  return (docs as Document.Parsed[]).map((doc, i) => readDocument(file, doc, firstDoc + i, lineCounter));
}

function posAt(lc: Lines, offset: number): Position {
  const p = lc.linePos(offset);
  return { line: p.line, column: p.col };
}

function readDocument(file: SourceFile, doc: Document.Parsed, docIndex: number, lc: Lines): ParsedDocument {
  const problems: ParseProblem[] = [];
  for (const e of doc.errors) {
    const dup = e.code === 'DUPLICATE_KEY';
    const deep = /call stack/i.test(e.message);
    problems.push({
      code: dup ? 'yaml-duplicate-key' : deep ? 'too-deep' : 'yaml-syntax',
      message: dup
        ? e.message.replace(/^Map keys must be unique/, 'duplicate key: map keys must be unique')
        : deep
          ? 'document is nested too deeply to be read'
          : e.message,
      position: posAt(lc, e.pos[0]),
      fatal: true,
    });
  }
  const contents = doc.contents;
  const docStart = posAt(lc, contents?.range?.[0] ?? doc.range[0]);
  if (problems.length > 0) return { file, docIndex, problems, manifests: [], empty: false };
  if (contents === null || (isScalar(contents) && contents.value === null && !contents.source)) {
    return { file, docIndex, problems, manifests: [], empty: true };
  }
  const found = { bigint: false };
  if (!inspect(contents, MAX_DEPTH, problems, lc, found)) {
    problems.push({
      code: 'too-deep',
      message: `document is nested more than ${MAX_DEPTH} levels deep`,
      position: docStart,
      fatal: true,
    });
  }
  if (problems.some((p) => p.fatal)) return { file, docIndex, problems, manifests: [], empty: false };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    problems.push({
      code: 'yaml-alias',
      message: `cannot read document: ${(e as Error).message}`,
      position: docStart,
      fatal: true,
    });
    return { file, docIndex, problems, manifests: [], empty: false };
  }
  if (found.bigint && isRecord(value)) {
    if (value['kind'] === 'CustomResourceDefinition') crdNumbers(value);
    else if (isListKind(value)) for (const item of value['items'] as unknown[]) if (isRecord(item) && item['kind'] === 'CustomResourceDefinition') crdNumbers(item);
  }
  if (Array.isArray(value)) {
    // a JSON 6902 or strategic-merge patch list (Kustomize) sits beside manifests: not an object to check
    problems.push({
      code: 'not-an-object',
      message: 'document is a list, not a Kubernetes object (a Kustomize patch?): skipped',
      position: docStart,
      fatal: false,
      severity: 'info',
    });
    return { file, docIndex, problems, manifests: [], empty: false };
  }
  if (!isRecord(value)) {
    problems.push({
      code: 'not-an-object',
      message: `document is ${describe(value)}, not an object: a Kubernetes manifest must be a mapping with apiVersion and kind`,
      position: docStart,
      fatal: true,
    });
    return { file, docIndex, problems, manifests: [], empty: false };
  }
  const manifests: Manifest[] = [];
  const root = contents as Node;
  if (isListKind(value)) {
    const items = value['items'];
    if (Array.isArray(items)) {
      items.forEach((item, i) => {
        if (isRecord(item)) manifests.push(makeManifest(file, docIndex, ['items', i], item, root, lc));
        else
          problems.push({
            code: 'not-an-object',
            message: `List item ${i} is ${describe(item)}, not an object`,
            position: locateIn(root, ['items', i], 'value', lc) ?? docStart,
            fatal: false,
          });
      });
    }
  } else {
    manifests.push(makeManifest(file, docIndex, [], value, root, lc));
  }
  return { file, docIndex, problems, manifests, empty: false };
}

/** kubectl flattens v1 List and every *List kind that carries items. */
function isListKind(v: Record<string, unknown>): boolean {
  const kind = v['kind'];
  return typeof kind === 'string' && kind.endsWith('List') && Array.isArray(v['items']);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function makeManifest(
  file: SourceFile,
  docIndex: number,
  base: JsonPath,
  value: Record<string, unknown>,
  root: Node,
  lc: Lines,
): Manifest {
  const fallback = locateIn(root, base, 'value', lc) ?? { line: 1, column: 1 };
  return manifestOf(file, docIndex, base, value, (path, at) => locateIn(root, [...base, ...path], at, lc, true) ?? fallback);
}

/** An object of a document, with how its positions are found. */
function manifestOf(
  file: SourceFile,
  docIndex: number,
  base: JsonPath,
  value: Record<string, unknown>,
  locate: (path: JsonPath, at: 'key' | 'value') => Position,
): Manifest {
  const meta = isRecord(value['metadata']) ? value['metadata'] : {};
  return {
    file,
    docIndex,
    base,
    value,
    apiVersion: str(value['apiVersion']),
    kind: str(value['kind']),
    name: str(meta['name']),
    namespace: str(meta['namespace']),
    locate: (path, at = 'value') => locate(path, at),
  };
}

/**
 * One iterative pass over the AST (hostile nesting cannot overflow the stack): false when deeper than
 * `max`. Reads keys and numbers the way kubectl does (sigs.k8s.io/yaml: go-yaml v2, then JSON):
 * - duplicate keys: the last value wins, reported as a warning (the API server, sent the YAML as it is
 *   with fieldValidation=Strict, answers `key "x" already set in map`);
 * - integer, float and bool keys become sigs.k8s.io/yaml's text for them (numberKey); a null,
 *   sequence, mapping or uint64 key cannot be converted to JSON (kubectl stops);
 * - a plain number beyond float64 (`1e400`) stays a string, `.inf` and `.nan` cannot be sent as JSON;
 * - integers beyond 2^53 within int64 are read exactly (bigint; `found.bigint`), as the server
 *   decodes them; sexagesimal `1:20` stays a string and `0o17` is 15 (goYamlScalar);
 * - timestamp-looking keys stay the text they were written as.
 * Verified against kubectl 1.32 and the real server: test/conformance/bad-input.conformance.test.ts.
 */
function inspect(root: unknown, max: number, problems: ParseProblem[], lc: Lines, found: { bigint: boolean }): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    if (d > max) return false;
    if (isMap(n)) {
      const seen = new Map<string, unknown>();
      for (const pair of n.items as unknown[]) {
        if (!isPair(pair)) continue;
        const k = pair.key;
        if (isMap(k) || isSeq(k) || (isScalar(k) && k.value === null)) {
          problems.push({
            code: 'yaml-map-key',
            message: isScalar(k) ? 'null map key: kubectl cannot convert it to JSON' : `invalid map key (a ${isMap(k) ? 'mapping' : 'sequence'}): kubectl cannot convert it to JSON`,
            position: rangeStart(k, lc) ?? { line: 1, column: 1 },
            fatal: true,
          });
          continue;
        }
        if (isScalar(k)) {
          goYamlScalar(k);
          if (k.value instanceof Date && k.source) k.value = k.source;
          else if (typeof k.value === 'number' || typeof k.value === 'bigint') {
            const key = numberKey(k.value, k.source);
            if (key === undefined) {
              problems.push({
                code: 'yaml-map-key',
                message: `unsupported map key of type: uint64, key: ${k.source ?? String(k.value)}: kubectl cannot convert it to JSON`,
                position: rangeStart(k, lc) ?? { line: 1, column: 1 },
                fatal: true,
              });
              continue;
            }
            k.value = key;
          }
          if (typeof k.value !== 'symbol') {
            const key = String(k.value);
            const first = seen.get(key);
            if (first !== undefined) {
              const at = rangeStart(first, lc);
              problems.push({
                code: 'yaml-duplicate-key',
                message: `duplicate key ${JSON.stringify(key)}${at ? ` (first at line ${at.line})` : ''}: kubectl keeps the last value; sent as written with fieldValidation=Strict the API server rejects it (key ${JSON.stringify(key)} already set in map)`,
                position: rangeStart(k, lc) ?? { line: 1, column: 1 },
                fatal: false,
                severity: 'warning',
              });
            } else seen.set(key, k);
          }
        }
        stack.push([pair.value, d + 1]);
      }
    } else if (isSeq(n)) {
      for (const item of n.items as unknown[]) stack.push([item, d + 1]);
    } else if (isScalar(n) && goYamlScalar(n)) {
      if (typeof n.value === 'bigint') found.bigint = true;
    } else if (isScalar(n) && typeof n.value === 'number' && !Number.isFinite(n.value) && n.source !== undefined) {
      if (INF_NAN.test(n.source))
        problems.push({
          code: 'yaml-json',
          message: `${n.source} cannot be sent: JSON has no ${/nan/i.test(n.source) ? 'NaN' : 'infinity'} (kubectl: json: unsupported value)`,
          position: rangeStart(n, lc) ?? { line: 1, column: 1 },
          fatal: true,
        });
      else n.value = n.source; // go-yaml keeps an out-of-range number as the string it was written as
    } else if (isScalar(n) && typeof n.value === 'number' && Number.isInteger(n.value) && !Number.isSafeInteger(n.value) && n.source !== undefined) {
      // an int64 beyond 2^53: exact, as go-yaml reads it and the server decodes it (int64); any other
      // such number is a float64 to go-yaml, sent as the integer Go's JSON encoding writes for it
      // (`1e18`, `4.611686018427387904e18` → 4611686018427388000), an int64 to the server when it fits
      const exact = int64Literal(n.source) ?? floatAsSent(n.value);
      if (exact !== undefined) {
        n.value = exact;
        found.bigint = true;
      }
    }
  }
  return true;
}

/** Walks the YAML AST along a path; with `closest`, stops at the deepest node that exists. */
function locateIn(
  root: Node,
  path: JsonPath,
  at: 'key' | 'value',
  lc: Lines,
  closest = false,
): Position | undefined {
  let node: unknown = root;
  let keyNode: unknown;
  let best: Position | undefined = rangeStart(root, lc);
  for (const seg of path) {
    let next: unknown;
    let nextKey: unknown;
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = pair.key;
        const kv = isScalar(k) ? k.value : k;
        if (kv === seg || (typeof seg === 'number' && kv === String(seg)) || String(kv) === String(seg)) {
          next = pair.value;
          nextKey = pair.key;
          break;
        }
      }
    } else if (isSeq(node) && typeof seg === 'number') {
      next = node.items[seg];
      nextKey = undefined;
    }
    if (next === undefined && nextKey === undefined) return closest ? best : undefined;
    node = next;
    keyNode = nextKey;
    const here = at === 'key' && keyNode ? rangeStart(keyNode, lc) : (rangeStart(node, lc) ?? rangeStart(keyNode, lc));
    if (here) best = here;
  }
  if (at === 'key' && keyNode) return rangeStart(keyNode, lc) ?? best;
  return best;
}

function rangeStart(node: unknown, lc: Lines): Position | undefined {
  if (node && typeof node === 'object' && 'range' in node) {
    const r = (node as { range?: [number, number, number] | null }).range;
    if (r) {
      const s = lc.linePos(r[0]);
      const e = lc.linePos(r[1]);
      return { line: s.line, column: s.col, endLine: e.line, endColumn: e.col };
    }
  }
  return undefined;
}
