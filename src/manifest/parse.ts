import { LineCounter, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { isRecord, type JsonPath, type Position } from '../core/types.js';
import { relaxQuotedIndentation } from './relax.js';

export interface SourceFile {
  /** As the user gave it; `-` for stdin. */
  readonly path: string;
  readonly text: string;
}

/** A problem found while reading a document: a YAML error, a non-object document. */
export interface ParseProblem {
  readonly code: 'yaml-syntax' | 'yaml-duplicate-key' | 'yaml-alias' | 'not-an-object' | 'too-deep';
  readonly message: string;
  readonly position: Position;
  /** true when the document could not be read at all. */
  readonly fatal: boolean;
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
}

/** Bounds that keep hostile input from exhausting memory or the stack. */
const MAX_ALIAS_COUNT = 1000;
export const MAX_DEPTH = 1000;

export function parseFile(file: SourceFile): ParsedDocument[] {
  const lineCounter = new LineCounter();
  const text = file.text.charCodeAt(0) === 0xfeff ? file.text.slice(1) : file.text;
  const opts = { lineCounter, version: '1.1', uniqueKeys: true, prettyErrors: false, strict: false, logLevel: 'error' } as const;
  const docs = parseAllDocuments(text, opts);
  // go-yaml tolerates under-indented continuation lines of quoted scalars: so must we
  if (Array.isArray(docs) && docs.some((d) => d.errors.length > 0)) {
    const relaxed = relaxQuotedIndentation(text);
    if (relaxed !== undefined) {
      const lc2 = new LineCounter();
      const again = parseAllDocuments(relaxed, { ...opts, lineCounter: lc2 });
      const before = docs.reduce((n, d) => n + d.errors.length, 0);
      if (Array.isArray(again) && again.reduce((n, d) => n + d.errors.length, 0) < before) {
        return finish(file, again, lc2);
      }
    }
  }
  return finish(file, docs, lineCounter);
}

function finish(file: SourceFile, docs: ReturnType<typeof parseAllDocuments>, lineCounter: LineCounter): ParsedDocument[] {
  // an EmptyStream (nothing but comments or directives) is not an array
  if (!Array.isArray(docs)) return [];
  return (docs as Document.Parsed[]).map((doc, docIndex) => readDocument(file, doc, docIndex, lineCounter));
}

function posAt(lc: LineCounter, offset: number): Position {
  const p = lc.linePos(offset);
  return { line: p.line, column: p.col };
}

function readDocument(file: SourceFile, doc: Document.Parsed, docIndex: number, lc: LineCounter): ParsedDocument {
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
  if (depthExceeds(contents, MAX_DEPTH)) {
    problems.push({
      code: 'too-deep',
      message: `document is nested more than ${MAX_DEPTH} levels deep`,
      position: docStart,
      fatal: true,
    });
    return { file, docIndex, problems, manifests: [], empty: false };
  }
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
  lc: LineCounter,
): Manifest {
  const meta = isRecord(value['metadata']) ? value['metadata'] : {};
  const fallback = locateIn(root, base, 'value', lc) ?? { line: 1, column: 1 };
  return {
    file,
    docIndex,
    base,
    value,
    apiVersion: str(value['apiVersion']),
    kind: str(value['kind']),
    name: str(meta['name']),
    namespace: str(meta['namespace']),
    locate(path: JsonPath, at: 'key' | 'value' = 'value'): Position {
      return locateIn(root, [...base, ...path], at, lc, true) ?? fallback;
    },
  };
}

function depthExceeds(node: unknown, max: number): boolean {
  // iterative walk: no recursion, so hostile nesting cannot overflow the stack
  const stack: [unknown, number][] = [[node, 0]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    if (d > max) return true;
    if (isMap(n) || isSeq(n)) {
      for (const item of n.items as unknown[]) stack.push([item, d + 1]);
    } else if (isPair(n)) {
      stack.push([n.value, d]);
    }
  }
  return false;
}

/** Walks the YAML AST along a path; with `closest`, stops at the deepest node that exists. */
function locateIn(
  root: Node,
  path: JsonPath,
  at: 'key' | 'value',
  lc: LineCounter,
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

function rangeStart(node: unknown, lc: LineCounter): Position | undefined {
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
