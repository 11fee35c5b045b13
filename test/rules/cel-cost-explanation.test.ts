import { ruleFixtureSuite } from '../helpers/rule-tester.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';
import { widgetsCrd } from '../helpers/crd.js';

ruleFixtureSuite('cel-cost-explanation');

describe('lint --explain-cost', () => {
  const text = widgetsCrd({
    schema: `type: object
properties:
  spec:
    type: object
    properties:
      tags: {type: array, maxItems: 10, items: {type: string, maxLength: 64}}
    x-kubernetes-validations:
    - rule: self.tags.all(t, t.startsWith('x'))`,
  });
  const explained = (explainCost: boolean) =>
    lintSources([{ path: 'crd.yaml', text }], { kubeVersion: DEFAULT_KUBE_VERSION, cel, explainCost }).findings.filter((f) => f.ruleId === 'cel-cost-explanation');
  it('reports every rule under budget with its estimate and share of the limit; nothing without it', () => {
    expect(explained(false)).toEqual([]);
    const [f, ...rest] = explained(true);
    expect(rest).toEqual([]);
    expect(f!.severity).toBe('info');
    expect(f!.line).toBe(21);
    expect(f!.message).toMatch(/^the rule is estimated at [\d,]+ \([\d.<]+% of the limit 10,000,000\): [\d,]+ per evaluation; it is dominated by a comprehension over self\.tags \(up to 10 elements × [\d,]+ per element = [\d,]+\)$/);
  });
});
