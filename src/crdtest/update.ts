/**
 * `kubectl crdx test --update`: the expectations of failing cases rewritten with what the server
 * answers, in the test file's text, keeping its comments, order and styles as far as the yaml
 * package does (it re-prints the file from its syntax tree: unchanged nodes keep their flow or
 * block style, quoting and comments). Pure: text in, text out.
 *
 *  - allowed where a denial was expected: `allowed: true` (the denial removed);
 *  - denied: `denied` keeps the causes that matched as written and gets the others as the server
 *    gives them (field, reason, message); `allowed` and `result` are removed;
 *  - warnings that did not match: the exact list;
 *  - result: each compared path that differs gets the actual value (null when absent).
 * Cases without an outcome (no CRD, an oldObject refused, CEL rules not evaluated) are left alone.
 */
import { isMap, isSeq, parseDocument, type Document, type YAMLMap } from 'yaml';
import { assign, partialDiff } from './expect.js';
import type { CaseResult, Cause, FileResult, TestCase, TestFile } from './types.js';

export interface UpdateResult {
  readonly text: string;
  /** Names of the cases whose expectations were rewritten. */
  readonly updated: readonly string[];
}

function causeNode(doc: Document, c: Cause): unknown {
  const m = doc.createNode({ ...(c.field !== undefined ? { field: c.field } : {}), reason: c.reason, message: c.message }) as YAMLMap;
  m.flow = false;
  return m;
}

function updateCase(doc: Document, tc: TestCase, r: CaseResult): boolean {
  const o = r.outcome;
  if (!o || r.passed || r.error !== undefined) return false;
  const at = tc.path;
  const node = doc.getIn(at, true);
  if (!isMap(node)) return false;
  const exp = tc.expect;
  if (o.allowed) {
    if (exp.denied) {
      // the allowed key takes the place of denied
      const i = node.items.findIndex((p) => (p.key as { value?: unknown })?.value === 'denied');
      node.items.splice(i, 1, doc.createPair('allowed', true) as (typeof node.items)[number]);
    }
    if (exp.result !== undefined) for (const d of partialDiff(exp.result, o.result)) doc.setIn([...at, 'result', ...d.path], doc.createNode(d.actual === undefined ? null : d.actual));
  } else {
    const kept = exp.denied ? assign(exp.denied, o.causes) : [];
    const used = new Set(kept.filter((j): j is number => j !== undefined));
    const items: unknown[] = [];
    const old = doc.getIn([...at, 'denied'], true);
    if (exp.denied && isSeq(old)) kept.forEach((j, i) => j !== undefined && items.push(old.items[i]));
    o.causes.forEach((c, j) => !used.has(j) && items.push(causeNode(doc, c)));
    const seq = doc.createNode([]);
    (seq as { items: unknown[] }).items = items;
    if (isSeq(old)) old.items = items as typeof old.items;
    else {
      const i = node.items.findIndex((p) => (p.key as { value?: unknown })?.value === 'allowed');
      const pair = doc.createPair('denied', seq) as (typeof node.items)[number];
      if (i >= 0) node.items.splice(i, 1, pair);
      else node.items.push(pair);
    }
    doc.deleteIn([...at, 'result']);
  }
  const w = exp.warnings;
  if (w) {
    const ok = 'exact' in w ? w.exact.length === o.warnings.length && w.exact.every((x, i) => x === o.warnings[i]) : w.contains.every((x) => o.warnings.some((t) => t.includes(x)));
    if (!ok) doc.setIn([...at, 'warnings'], doc.createNode([...o.warnings]));
  }
  return true;
}

export function updateTestFile(text: string, model: TestFile, result: FileResult): UpdateResult {
  const doc = parseDocument(text, { version: '1.1', keepSourceTokens: false });
  const updated: string[] = [];
  for (const r of result.cases) {
    const tc = model.cases.find((c) => c.index === r.index);
    if (tc && updateCase(doc, tc, r)) updated.push(tc.name);
  }
  if (updated.length === 0) return { text, updated };
  return { text: doc.toString({ lineWidth: 0, flowCollectionPadding: false }), updated };
}
