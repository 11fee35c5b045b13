import { describe, expect, it } from 'vitest';
import { meantField } from '../../src/rules/schema-dropped-fields.js';
import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('schema-dropped-fields');

describe('meantField', () => {
  const fields = ['type', 'items', 'maxLength', 'maxItems', 'x-kubernetes-validations', 'properties', 'enum'];
  it.each([
    ['maxlength', 'maxLength'],
    ['x-kubernetes-validatons', 'x-kubernetes-validations'],
    ['proprties', 'properties'],
    ['itmes', 'items'],
    ['tpye', 'type'],
  ])('%s → %s', (key, meant) => expect(meantField(key, fields)).toBe(meant));
  it.each(['examples', 'readOnly', 'const', 'nums'])('%s → nothing', (key) => expect(meantField(key, fields)).toBeUndefined());
});
