import { describe, expect, it } from 'vitest';
import { widgetsCrd } from '../helpers/crd.js';
import { lintYaml } from '../helpers/lint.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';
import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('selectable-fields');

function crd(jsonPath: string): string {
  return widgetsCrd({
    version: `selectableFields: [{jsonPath: "${jsonPath}"}]`,
    schema: `type: object
properties:
  spec: {type: object, properties: {color: {type: string}}}`,
  });
}

const messages = (jsonPath: string): string[] => lintYaml(crd(jsonPath)).filter((f) => f.ruleId === 'selectable-fields').map((f) => f.message);

describe('selectable-fields lookups are own-key', () => {
  it('an undeclared name does not refer to a valid field (the server\'s message; a single version hoists the list)', () => {
    expect(messages('.spec.nothere')).toEqual([
      'spec.selectableFields[0].jsonPath: Invalid value: ".spec.nothere": is an invalid path: does not refer to a valid field',
    ]);
  });
  it.each(['__proto__', 'constructor', 'toString'])('.spec.%s is no different', (name) => {
    expect(messages(`.spec.${name}`)).toEqual(messages('.spec.nothere').map((m) => m.replaceAll('nothere', name)));
  });
});

describe('selectable-fields on a 1.30 server (CustomResourceFieldSelectors alpha and off)', () => {
  const ids = (fs: readonly { ruleId: string }[]) => fs.filter((f) => f.ruleId === 'selectable-fields').length;
  it('are dropped without a check on create, checked from 1.31', () => {
    expect(ids(lintYaml(crd('.spec.nothere'), '1.30'))).toBe(0);
    expect(ids(lintYaml(crd('.spec.nothere'), '1.31'))).toBe(1);
  });
  it('are checked on an update of a CRD that already has some (dropDisabledFields keeps them)', () => {
    const run = (old: string) =>
      lintSources([{ path: 'new.yaml', text: crd('.spec.nothere') }], { kubeVersion: { major: 1, minor: 30 }, cel, old: [{ path: 'old.yaml', text: old }] }).findings;
    expect(ids(run(crd('.spec.color')))).toBe(1);
    expect(ids(run(crd('.spec.color').replace(/    selectableFields: .*\n/, '')))).toBe(0);
  });
});
