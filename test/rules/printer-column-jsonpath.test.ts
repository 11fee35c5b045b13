import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { lintYaml } from '../helpers/lint.js';
import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('printer-column-jsonpath');

it('names the columns a table still shows: NAME and those before the first unparsable one', () => {
  const text = readFileSync(join(import.meta.dirname, '../../fixtures/rules/printer-column-jsonpath/invalid/later-columns.yaml'), 'utf8');
  const messages = lintYaml(text)
    .filter((f) => f.ruleId === 'printer-column-jsonpath')
    .map((f) => f.message);
  expect(messages).toEqual([
    'jsonPath .spec.b[ cannot be parsed (unterminated array): the server silently drops this printer column and every one after it; tables show only NAME, A',
    'jsonPath .spec.c[x] cannot be parsed (invalid array subscript [x]): the server silently drops this printer column and every one after it; tables show only NAME, A',
  ]);
});
