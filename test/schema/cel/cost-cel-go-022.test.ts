/**
 * Cost estimates on servers before 1.33 (cel-go 0.17.8 to 0.22.0, without the entry sizes of list
 * and map literals that cel-go 0.23 brought; before 1.32 also without the Kubernetes library's
 * estimate of `==` between its types) and after. Every expected number is the
 * MaxCost / MessageExpressionMaxCost of apiextensions cel.Compile, run with the k8s.io modules of
 * 1.30.14 and of 1.37.2 on the schema below; the lint verdicts are those of real 1.30 and 1.37
 * apiservers (`kubectl create --dry-run=server` of the same CRDs: three errors each where refused).
 */
import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../../src/crd/structural-schema.js';
import { costCompilerFor } from '../../../src/schema/cel/cost-compile.js';
import { costOptionsFor, expressionCostWith } from '../../../src/schema/cel/cost-crd.js';
import { lintSources } from '../../../src/engine/lint.js';
import { cel } from '../../helpers/cel.js';
import { crdObject } from '../../helpers/crd.js';

const str = (maxLength?: number) => ({ type: 'string', ...(maxLength === undefined ? {} : { maxLength }) });
const arr = (items: object, maxItems?: number) => ({ type: 'array', items, ...(maxItems === undefined ? {} : { maxItems }) });
const SCHEMA = buildStructural({
  type: 'object',
  properties: {
    name: str(63),
    alias: str(63),
    list: arr(str(10), 5),
    ulist: arr(str()),
    nested: arr(arr(str(8), 3), 4),
    m: { type: 'object', maxProperties: 6, additionalProperties: str(12) },
  },
});

function cost(expr: string, kind: 'rule' | 'messageExpression', server: number): bigint | undefined {
  const r = costCompilerFor(server - 1, server).compile(expr, SCHEMA, false, kind, false);
  if (!r.ok) return undefined;
  return expressionCostWith({ ast: r.ast, node: SCHEMA, isRoot: false, kind, ancestors: [{ node: SCHEMA, loc: undefined as never }], kubeMinor: server }, new Map())?.cost;
}

// [expression, 1.30 estimate, 1.37 estimate]
const MESSAGE_EXPRESSIONS: [string, bigint, bigint][] = [
  ["'bad name ' + [?self.?name][0]", 14n, 1844674407370955277n],
  ["'x' + [self.name, self.alias][1]", 16n, 41n],
  ["'x' + {'a': self.name}['a']", 34n, 59n],
  ["{'a': self.list}['a'].join(',')", 33n, 1844674407370955297n],
  ["[self.list, ['a']][1].join(',')", 23n, 1844674407370955287n],
  // the same under both models
  ["'x' + ['a', 'bb'][0]", 12n, 12n],
  ["(self.name.size() > 3 ? [self.name] : [self.alias])[0]", 17n, 17n],
];
const RULES: [string, bigint, bigint][] = [
  ["dyn(self.list).all(x, x == 'a')", 18446744073709551615n, 24n],
  ['self.list.all(x, [x, self.name][1].contains(x))', 93n, 613n],
  ["self.nested.all(x, x.exists(y, [y, 'a'][0].contains(self.name)))", 239n, 1487n],
  ['self.ulist.all(x, [x][0].contains(self.name))', 17825778n, 8576205796128n],
  ["self.?name.orValue('') == [?self.?alias][0]", 16n, 1844674407370955280n],
  // before 1.32 the Kubernetes library has no estimate for == of its types, nor a size for url()
  ['quantity(self.name) == quantity(self.alias)', 1844674407370955320n, 57n],
  ['url(self.name) == url(self.alias)', 1844674407370955320n, 82n],
  ['self.list.all(x, quantity(x) == quantity(self.name))', 9223372036854776503n, 188n],
  // the same under both models
  ['([self.name] + [self.alias]).all(x, x.contains(self.alias))', 38n, 38n],
  ['quantity(self.name).isGreaterThan(quantity(self.alias))', 57n, 57n],
  ['quantity(self.name) != quantity(self.alias)', 1844674407370955320n, 1844674407370955320n],
  ["self.list.filter(x, x == 'a').size() == 2", 90n, 90n],
];

describe('estimates of cel-go before 0.23 (1.30) and after (1.37)', () => {
  for (const [kind, cases] of [['messageExpression', MESSAGE_EXPRESSIONS], ['rule', RULES]] as const) {
    for (const [expr, at30, at37] of cases) {
      it(`${kind} ${expr}`, () => {
        expect(cost(expr, kind, 30)).toBe(at30);
        expect(cost(expr, kind, 37)).toBe(at37);
      });
    }
  }

  it('the models change with the server minor (library 1.32, cel-go 0.23.2 in 1.33), not with the compatibility version', () => {
    expect(costOptionsFor(30, 31).k8sEqualityCost).toBe(false);
    expect(costOptionsFor(31, 32).k8sEqualityCost).toBe(true);
    expect(costOptionsFor(31, 32).entrySizes).toBe(false);
    expect(costOptionsFor(32, 33).entrySizes).toBe(true);
    expect(costOptionsFor(33, 33).entrySizes).toBe(true);
  });
});

describe('lint against real 1.30 and 1.37 servers', () => {
  const crd = (validations: object[]) =>
    crdObject({ group: 'oldcost.crdx.test', schema: { type: 'object', properties: { spec: { type: 'object', properties: { name: str(63), alias: str(63) }, 'x-kubernetes-validations': validations } } } });
  const errors = (validations: object[], minor: number) =>
    lintSources([{ path: 'crd.yaml', text: JSON.stringify(crd(validations)) }], { kubeVersion: { major: 1, minor }, cel })
      .findings.filter((f) => f.severity === 'error')
      .map((f) => (f.server ? `${f.server.field}: ${f.server.message}` : `${f.ruleId}: ${f.message}`));

  const AT = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations';
  const OVER = 'Forbidden: estimated rule cost exceeds budget by factor of more than 100x';
  const MSG_OVER = 'Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x';
  const bad = [{ rule: 'true', messageExpression: "'bad name ' + [?self.?name][0]" }];
  const quantities = [{ rule: 'quantity(self.name) == quantity(self.alias)' }];

  it("an optional list literal's index in a messageExpression: accepted by 1.30, over budget on 1.37", () => {
    expect(errors(bad, 30)).toEqual([]);
    expect(errors(bad, 37)).toContainEqual(expect.stringContaining(`${AT}[0].messageExpression: ${MSG_OVER}`));
    // and the two per-CRD total errors, as the server
    expect(errors(bad, 37)).toHaveLength(3);
  });
  it('== of two quantities: over budget on 1.30, accepted by 1.37', () => {
    expect(errors(quantities, 30)).toContainEqual(expect.stringContaining(`${AT}[0].rule: ${OVER}`));
    expect(errors(quantities, 30)).toHaveLength(3);
    expect(errors(quantities, 37)).toEqual([]);
  });
});
