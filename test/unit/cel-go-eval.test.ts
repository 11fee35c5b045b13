/**
 * crdx's CEL evaluator against cel-go itself, on generated expressions: test/unit/cel-go-eval.json
 * holds 3,000 expressions (templates over the strings extension, format verbs, conversions,
 * timestamps with zones, durations, quantity, url, ip, cidr, semver, lists, sets, comprehensions,
 * optionals, bytes, arithmetic) with values for s, t, u (string), i, j (int) and d (double), and the
 * answer of the API server's CEL (recorded by test/apiserver/celeval/record.mjs). Each runs through
 * evaluateExpression, as a rule runs: the value must be cel-go's (its type, and fmt's %v of it), an
 * evaluation error must be one, with cel-go's text. Declared below, with their reasons: what crdx
 * reports as not evaluated, and the one known difference of text.
 */
import { describe, expect, it } from 'vitest';
import { formatFloat } from '../../src/go/float.js';
import { evaluateExpression } from '../../src/schema/cel-eval.js';
import { cel } from '../helpers/cel.js';
import { celGoCases, celGoVars, type CelGoCase } from '../helpers/cel-go-cases.js';

const cases = celGoCases(new URL('./cel-go-eval.json', import.meta.url));
const KUBE = { major: 1, minor: 37 };

/** What crdx reports as not evaluated (never silently): the reason, matched against `why`. */
const ABSTAINS: readonly [RegExp, string][] = [
  [/a URL whose path has characters Go escapes/, 'Go\'s URL path escaping is not reproduced'],
  [/the time zone "Local"/, 'the server\'s own zone is not known'],
];

/**
 * When the receiver and an argument of one call both fail, cel-go reports the receiver's error and
 * cel-js the argument's (it evaluates arguments last to first): the same verdict, another text.
 * Tolerated for these expressions only, and only when crdx's text is cel-go's text of one of the
 * calls' operands failing on its own (checked by evaluating each operand).
 */
const TWO_FAILING_OPERANDS: Readonly<Record<string, readonly string[]>> = {
  'semver(s).compareTo(semver(t))': ['semver(s)', 'semver(t)'],
  'string(timestamp(s) + duration(t))': ['timestamp(s)', 'duration(t)'],
  'string(timestamp(s) - duration(t))': ['timestamp(s)', 'duration(t)'],
  'string(timestamp(s) - timestamp(t))': ['timestamp(s)', 'timestamp(t)'],
  'string(duration(s) + duration(t))': ['duration(s)', 'duration(t)'],
  'string(duration(s) - duration(t))': ['duration(s)', 'duration(t)'],
  'duration(s) < duration(t)': ['duration(s)', 'duration(t)'],
  'timestamp(s) == timestamp(t)': ['timestamp(s)', 'timestamp(t)'],
  'quantity(s).compareTo(quantity(t))': ['quantity(s)', 'quantity(t)'],
  'quantity(s).sub(quantity(t)).isInteger()': ['quantity(s)', 'quantity(t)'],
  'quantity(s).isGreaterThan(quantity(t))': ['quantity(s)', 'quantity(t)'],
  'cidr(s).containsCIDR(t)': ['cidr(s)', 'cidr(t)'],
  'uint(i) + uint(j)': ['uint(i)', 'uint(j)'],
  'uint(i) - uint(j)': ['uint(i)', 'uint(j)'],
  'uint(i) % uint(j)': ['uint(i)', 'uint(j)'],
};

function typeOf(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'map';
  if (typeof v === 'object' && v !== null && typeof (v as { valueOf(): unknown }).valueOf() === 'bigint') return 'uint';
  return 'unknown';
}

/** fmt's %v of a scalar value as the recorder printed it. */
const show = (v: unknown): string => (typeof v === 'number' ? formatFloat(v, 'g') : typeof v === 'object' && v !== null ? String((v as { valueOf(): unknown }).valueOf()) : String(v));

const run = (c: CelGoCase, expr = c.expr) => evaluateExpression(expr, celGoVars(c), cel, KUBE);

describe('the evaluator against cel-go (generated expressions)', () => {
  const compared = cases.filter((c) => c.go.compile === undefined && c.go.program === undefined);

  it('has recorded cases, nearly all of them comparable', () => {
    expect(cases.length).toBe(3000);
    expect(compared.length).toBeGreaterThan(2700);
  });

  it('gives cel-go\'s value, or cel-go\'s error with its text', () => {
    const wrong: string[] = [];
    const tally = { values: 0, errors: 0, abstained: 0, orderTexts: 0 };
    for (const c of compared) {
      const r = run(c);
      const at = `${c.expr} ${JSON.stringify({ s: c.s, t: c.t, u: c.u, i: c.i, j: c.j, d: c.d })}`;
      if (r.kind === 'abstain') {
        const known = ABSTAINS.find(([re]) => re.test(r.why));
        if (known) tally.abstained++;
        else wrong.push(`${at}: not evaluated (${r.why}); cel-go: ${c.go.err ?? `${c.go.type} ${c.go.value}`}`);
        continue;
      }
      if (c.go.err === undefined) {
        if (r.kind === 'value' && typeOf(r.value) === c.go.type && (c.go.type === 'list' || c.go.type === 'map' || show(r.value) === c.go.value)) tally.values++;
        else wrong.push(`${at}: ${r.kind === 'value' ? `${typeOf(r.value)} ${show(r.value)}` : `error ${r.text ?? r.message}`}; cel-go: ${c.go.type} ${c.go.value}`);
        continue;
      }
      if (r.kind !== 'error') {
        wrong.push(`${at}: ${typeOf(r.value)} ${show(r.value)}; cel-go: error ${c.go.err}`);
        continue;
      }
      if (r.text === c.go.err) {
        tally.errors++;
        continue;
      }
      const operands = TWO_FAILING_OPERANDS[c.expr];
      const operandTexts = (operands ?? []).map((o) => run(c, o)).flatMap((x) => (x.kind === 'error' && x.text !== undefined ? [x.text] : []));
      if (operands !== undefined && r.text !== undefined && operandTexts.includes(r.text) && operandTexts.includes(c.go.err)) tally.orderTexts++;
      else wrong.push(`${at}: error ${r.text ?? `(no cel-go text: ${r.message})`}; cel-go: error ${c.go.err}`);
    }
    expect(wrong).toEqual([]);
    expect(tally.values).toBeGreaterThan(1500);
    expect(tally.errors).toBeGreaterThan(500);
  });
});
