import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../../src/crd/structural-schema.js';
import { schemaDeclType } from '../../../src/schema/cel/decl.js';

const MAX = 3 * 1024 * 1024;
const arraySchema = (type: string, format: string, maxItems?: number): Record<string, unknown> => ({
  type: 'array',
  items: { type, ...(format ? { format } : {}) },
  ...(maxItems !== undefined ? { maxItems } : {}),
});

/** apiextensions-apiserver pkg/apiserver/schema/cel/model/schemas_test.go TestEstimateMaxLengthJSON, ported. */
const CASES: [string, Record<string, unknown>, number | 'nil'][] = [
  ['booleanArray', arraySchema('boolean', ''), 629145],
  ['durationArray', arraySchema('string', 'duration'), 786431],
  ['datetimeArray', arraySchema('string', 'date-time'), 142987],
  ['dateArray', arraySchema('string', 'date'), 241978],
  ['numberArray', arraySchema('integer', ''), 1572863],
  ['stringArray', arraySchema('string', ''), 1048575],
  ['stringMap', { type: 'object', additionalProperties: { type: 'string' } }, 393215],
  [
    'objectOptionalPropertyArray',
    { type: 'array', items: { type: 'object', required: ['required'], properties: { required: { type: 'string' }, optional: { type: 'string' } } } },
    185042,
  ],
  ['arrayWithLength', arraySchema('integer', 'int64', 10), 10],
  ['stringWithLength', { type: 'string', maxLength: 20 }, 80],
  ['mapWithLength', { type: 'object', additionalProperties: { type: 'string' }, format: 'string', maxProperties: 15 }, 15],
  ['durationMaxSize', { type: 'string', format: 'duration' }, 32],
  ['dateSize', { type: 'string', format: 'date' }, 12],
  ['maxdatetimeSize', { type: 'string', format: 'date-time' }, 32],
  ['maxintOrStringSize', { 'x-kubernetes-int-or-string': true }, MAX - 2],
  ['objectDefaultFieldArray', { type: 'array', items: { type: 'object', required: ['field'], properties: { field: { type: 'string', default: 'default' } } } }, 1048575],
  ['byteStringSize', { type: 'string', format: 'byte' }, 3145726],
  ['byteStringSetMaxLength', { type: 'string', format: 'byte', maxLength: 20 }, 20],
  ['Property under array', { type: 'array', properties: { field: { type: 'string', default: 'default' } } }, 'nil'],
];

describe('SchemaDeclType maxElements (upstream TestEstimateMaxLengthJSON)', () => {
  for (const [name, schema, want] of CASES) {
    it(name, () => {
      const d = schemaDeclType(buildStructural(schema), false, 36);
      if (want === 'nil') expect(d).toBeUndefined();
      else expect(d?.maxElements).toBe(want);
    });
  }
  it('string enums bound the length by their longest value', () => {
    expect(schemaDeclType(buildStructural({ type: 'string', enum: ['a', 'abcd', 'é'] }), false, 36)?.maxElements).toBe(4);
  });
});
