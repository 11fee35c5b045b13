/**
 * The expectations of a case against an outcome (crdx's, or the real server's in the conformance
 * suite: the same comparison decides both verdicts). Pure.
 */
import { formatPath } from '../core/path.js';
import { isRecord, type JsonPath, type Position } from '../core/types.js';
import { jsonText } from '../core/json-text.js';
import type { Cause, ExpectedCause, Expectations, Mismatch, Outcome } from './types.js';

/** Where a path of the test file is (line, column). */
type Locate = (path: JsonPath, at?: 'key' | 'value') => Position;

function causeText(c: Cause): string {
  return `${c.field !== undefined ? `${c.field}: ` : ''}${c.message} (${c.reason})`;
}

function expectedText(e: ExpectedCause): string {
  const parts: string[] = [];
  if (e.field !== undefined) parts.push(`field ${e.field}`);
  if (e.type !== undefined) parts.push(`type ${e.type}`);
  if (e.reason !== undefined) parts.push(`reason ${e.reason}`);
  if (e.message !== undefined) parts.push(`message ${JSON.stringify(e.message)}`);
  if (e.messageContains !== undefined) parts.push(`message containing ${JSON.stringify(e.messageContains)}`);
  return parts.join(', ');
}

/** field.ErrorType → StatusCause reason (Invalid → FieldValueInvalid; Internal → InternalError). */
function typeMatches(type: string, reason: string): boolean {
  return reason === type || reason === (type === 'Internal' ? 'InternalError' : `FieldValue${type}`);
}

function causeMatches(e: ExpectedCause, c: Cause): boolean {
  if (e.field !== undefined && e.field !== (c.field ?? '')) return false;
  if (e.type !== undefined && !typeMatches(e.type, c.reason)) return false;
  if (e.reason !== undefined && e.reason !== c.reason) return false;
  if (e.message !== undefined && e.message !== c.message) return false;
  if (e.messageContains !== undefined && !c.message.includes(e.messageContains)) return false;
  return true;
}

/** A one-to-one assignment of expected causes to actual ones (augmenting paths; lists are short). */
export function assign(expected: readonly ExpectedCause[], actual: readonly Cause[]): (number | undefined)[] {
  const ofActual: (number | undefined)[] = actual.map(() => undefined);
  const tryAssign = (i: number, seen: Set<number>): boolean => {
    for (let j = 0; j < actual.length; j++) {
      if (seen.has(j) || !causeMatches(expected[i]!, actual[j]!)) continue;
      seen.add(j);
      const holder = ofActual[j];
      if (holder === undefined || tryAssign(holder, seen)) {
        ofActual[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < expected.length; i++) tryAssign(i, new Set());
  const ofExpected: (number | undefined)[] = expected.map(() => undefined);
  ofActual.forEach((i, j) => {
    if (i !== undefined) ofExpected[i] = j;
  });
  return ofExpected;
}

function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  return jsonText(v) ?? String(v);
}

function sameScalar(a: unknown, b: unknown): boolean {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) return typeof a === typeof b ? a === b : Number(a) === Number(b);
  return a === b;
}

/** Where `actual` differs from `expected`, compared partially: maps only on the keys given, null meaning absent (or null). */
export function partialDiff(expected: unknown, actual: unknown, at: JsonPath = []): { path: JsonPath; expected: unknown; actual: unknown }[] {
  if (expected === null) return actual === null || actual === undefined ? [] : [{ path: at, expected: null, actual }];
  if (isRecord(expected)) {
    if (!isRecord(actual)) return [{ path: at, expected, actual }];
    return Object.keys(expected).flatMap((k) => partialDiff(expected[k], actual[k], [...at, k]));
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [{ path: at, expected, actual }];
    return expected.flatMap((x, i) => partialDiff(x, actual[i], [...at, i]));
  }
  return sameScalar(expected, actual) ? [] : [{ path: at, expected, actual }];
}

/** Every way the outcome differs from what the case expects ([]: the case passes). */
export function compare(expect: Expectations, outcome: Outcome, casePath: JsonPath, locate: Locate): Mismatch[] {
  const out: Mismatch[] = [];
  const at = (p: JsonPath, where: 'key' | 'value' = 'value') => {
    const pos = locate([...casePath, ...p], where);
    return { line: pos.line, column: pos.column };
  };
  const actualVerdict = outcome.allowed ? 'allowed' : `denied (HTTP ${outcome.code}): ${outcome.causes.map(causeText).join('; ')}`;
  if (expect.allowed === true && !outcome.allowed) out.push({ what: 'verdict', expected: 'allowed', actual: actualVerdict, ...at(['allowed']) });
  if (expect.denied) {
    if (outcome.allowed) out.push({ what: 'verdict', expected: `denied: ${expect.denied.map(expectedText).join('; ')}`, actual: 'allowed', ...at(['denied'], 'key') });
    else {
      const got = assign(expect.denied, outcome.causes);
      const used = new Set(got.filter((j): j is number => j !== undefined));
      // an expected cause not found is shown beside an actual cause nothing expected, in order
      const spare = outcome.causes.filter((_, j) => !used.has(j));
      expect.denied.forEach((e, i) => {
        if (got[i] !== undefined) return;
        const other = spare.shift();
        out.push({ what: `cause ${i + 1}`, expected: expectedText(e), actual: other ? causeText(other) : '(no such cause)', ...at(e.path.slice(casePath.length)) });
      });
      for (const c of spare) out.push({ what: 'unexpected cause', expected: '(none)', actual: causeText(c), ...at(['denied'], 'key') });
    }
  }
  if (expect.warnings) {
    const w = expect.warnings;
    if ('exact' in w) {
      if (w.exact.length !== outcome.warnings.length || w.exact.some((x, i) => x !== outcome.warnings[i]))
        out.push({ what: 'warnings', expected: show(w.exact), actual: show(outcome.warnings), ...at(['warnings']) });
    } else {
      w.contains.forEach((x, i) => {
        if (!outcome.warnings.some((t) => t.includes(x))) out.push({ what: 'warning', expected: `a warning containing ${JSON.stringify(x)}`, actual: show(outcome.warnings), ...at(['warnings', 'contains', i]) });
      });
    }
  }
  if (expect.result !== undefined && outcome.allowed) {
    for (const d of partialDiff(expect.result, outcome.result)) {
      out.push({ what: `result${d.path.length > 0 ? ` ${formatPath(d.path)}` : ''}`, expected: show(d.expected), actual: show(d.actual), ...at(['result', ...d.path]) });
    }
  }
  return out;
}
