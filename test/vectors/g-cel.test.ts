// crd-validation.md §21 G. CEL x-kubernetes-validations (TV72–TV84).
import { describe, it } from 'vitest';
import { S, expectExactly, expectNoErrors, lint, withSchema, type Obj } from './util.js';

const XV = 'x-kubernetes-validations';
const VALID_PATH = 'must be a valid path';
const value = (v: Obj) => withSchema({ type: 'object', properties: { value: v } });

describe('§21 G. CEL x-kubernetes-validations', () => {
  it('TV72 empty rules', () => {
    const yaml = value({ type: 'integer', [XV]: [{ message: 'something' }, { rule: '   ', message: 'something' }] });
    expectExactly(lint(yaml), [
      ['Required', `${S}.properties[value].${XV}[0].rule`, 'rule is not specified'],
      ['Required', `${S}.properties[value].${XV}[1].rule`, 'rule is not specified'],
    ]);
  });

  it('TV73 message problems', () => {
    const yaml = value({
      type: 'integer',
      [XV]: [
        { rule: 'self >= 0 &&\nself <= 100' },
        { rule: 'self == 50', message: 'value requirements:\nmust be >= 0\nmust be <= 100 ' },
        { rule: 'self == 50', message: ' ' },
      ],
    });
    const X = `${S}.properties[value].${XV}`;
    expectExactly(lint(yaml), [
      ['Required', `${X}[0].message`, 'message must be specified if rule contains line breaks'],
      ['Invalid', `${X}[1].message`, 'must not contain line breaks'],
      ['Invalid', `${X}[2].message`, 'must be non-empty if specified'],
    ]);
  });

  // the server's answer, which crdx does not give yet: it.fails until it does (then make it an it())
  it('TV74 rule that does not compile (type-checked against the schema)', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        subRoot: { type: 'string', [XV]: [{ rule: 'self == true', message: 'x' }, { rule: "self.endsWith('s')", message: 'y' }] },
      },
    });
    expectExactly(lint(yaml), [['Invalid', `${S}.properties[subRoot].${XV}[0].rule`, 'compilation failed: ']]);
  });

  it('TV75 rules inside junctors', () => {
    const r = { [XV]: [{ rule: 'should be forbidden' }] };
    const yaml = withSchema({
      type: 'object',
      properties: { a: { type: 'number', not: r, anyOf: [r], allOf: [r], oneOf: [r] } },
    });
    const A = `${S}.properties[a]`;
    const EMPTY = 'must be empty to be structural';
    expectExactly(lint(yaml), [
      ['Forbidden', `${A}.not.${XV}`, EMPTY],
      ['Forbidden', `${A}.allOf[0].${XV}`, EMPTY],
      ['Forbidden', `${A}.anyOf[0].${XV}`, EMPTY],
      ['Forbidden', `${A}.oneOf[0].${XV}`, EMPTY],
    ]);
  });

  it('TV76 invalid reason', () => {
    const yaml = withSchema({
      type: 'object',
      [XV]: [{ rule: 'self.a > 0', reason: 'InternalError', fieldPath: '.a' }],
      properties: {
        a: {
          type: 'number',
          [XV]: [
            { rule: 'true', reason: 'FieldValueRequired' },
            { rule: 'true', reason: 'FieldValueInvalid' },
            { rule: 'true', reason: 'FieldValueDuplicate' },
            { rule: 'true', reason: 'FieldValueForbidden' },
          ],
        },
      },
    });
    expectExactly(lint(yaml), [
      [
        'NotSupported',
        `${S}.${XV}[0].reason`,
        'supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
      ],
    ]);
  });

  const list = { type: 'array', items: { type: 'object', properties: { a: { type: 'number' } } } };

  it('TV77 fieldPath syntax', () => {
    const yaml = withSchema({
      type: 'object',
      [XV]: [
        { rule: 'true', fieldPath: ".foo['b.c']['c\\a']" }, // valid: backslash followed by a
        { rule: 'true', fieldPath: "['a.c']" }, // valid
        { rule: 'true', fieldPath: '.a.c' },
        { rule: 'true', fieldPath: '.list[0]' },
        { rule: 'true', fieldPath: '   ' },
        { rule: 'true', fieldPath: '.' },
        { rule: 'true', fieldPath: '..' },
      ],
      properties: {
        'a.c': { type: 'number' },
        foo: { type: 'object', properties: { 'b.c': { type: 'object', properties: { 'c\u0007': { type: 'number' } } } } },
        list,
      },
    });
    const F = (i: number) => `${S}.${XV}[${i}].fieldPath`;
    expectExactly(lint(yaml), [
      ['Invalid', F(2), VALID_PATH],
      ['Invalid', F(3), VALID_PATH],
      ['Invalid', F(4), 'must be non-empty if specified'],
      ['Invalid', F(4), VALID_PATH],
      ['Invalid', F(5), VALID_PATH],
      ['Invalid', F(6), VALID_PATH],
    ]);
  });

  it('TV78 fieldPath that does not resolve', () => {
    const yaml = withSchema({
      type: 'object',
      [XV]: ['.list[0].b', '.list[0.b', '.list0].b', '.a.c', '.a.b.d'].map((fieldPath) => ({ rule: 'self.a.b.c > 0.0', fieldPath })),
      properties: {
        a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'number' } } } } },
        list,
      },
    });
    expectExactly(
      lint(yaml),
      [0, 1, 2, 3, 4].map((i) => ['Invalid', `${S}.${XV}[${i}].fieldPath`, VALID_PATH] as const),
    );
  });

  const tv79 = (listType?: string) =>
    value({
      type: 'array',
      ...(listType ? { 'x-kubernetes-list-type': listType } : {}),
      items: { type: 'string', maxLength: 10, [XV]: [{ rule: 'self == oldSelf' }] },
    });
  const UNCORRELATABLE = 'oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[value]';

  it('TV79 oldSelf on an atomic list item', () => {
    expectExactly(lint(tv79('atomic')), [['Invalid', `${S}.properties[value].items.${XV}[0].rule`, UNCORRELATABLE]]);
  });

  it('TV79 variant: no list type', () => {
    expectExactly(lint(tv79()), [['Invalid', `${S}.properties[value].items.${XV}[0].rule`, UNCORRELATABLE]]);
  });

  it('TV79 variant: list type set', () => {
    expectExactly(lint(tv79('set')), [['Invalid', `${S}.properties[value].items.${XV}[0].rule`, UNCORRELATABLE]]);
  });

  it('TV79 variant: list type map is accepted', () => {
    const yaml = value({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', maxLength: 10 } },
        [XV]: [{ rule: 'self == oldSelf' }],
      },
    });
    expectNoErrors(lint(yaml));
  });

  it('TV80 oldSelf under an unknown map type', () => {
    const yaml = value({
      type: 'object',
      'x-kubernetes-map-type': 'future',
      properties: { subfield: { type: 'string', maxLength: 10, [XV]: [{ rule: 'self == oldSelf' }] } },
    });
    expectExactly(lint(yaml), [
      [
        'Invalid',
        `${S}.properties[value].properties[subfield].${XV}[0].rule`,
        'within spec.validation.openAPIV3Schema.properties[value]',
      ],
      ['NotSupported', `${S}.properties[value].x-kubernetes-map-type`],
    ]);
  });

  for (const optionalOldSelf of [true, false]) {
    it(`TV81 optionalOldSelf without oldSelf${optionalOldSelf ? '' : ' (variant: optionalOldSelf false)'}`, () => {
      const yaml = value({ type: 'string', maxLength: 10, [XV]: [{ rule: 'self == "foo"', optionalOldSelf }] });
      expectExactly(lint(yaml), [
        ['Invalid', `${S}.properties[value].${XV}[0].optionalOldSelf`, 'may not be set if oldSelf is not used in rule'],
      ]);
    });
  }

  // the server's answer, which crdx does not give yet: it.fails until it does (then make it an it())
  it('TV82 messageExpression f1/f2/f3: compilation failure, result type and blank text', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        f1: { type: 'string', [XV]: [{ rule: 'self == "string value"', messageExpression: 'self + " ' }] },
        f2: { type: 'string', [XV]: [{ rule: 'self == "string value"', messageExpression: '256' }] },
        f3: { type: 'string', [XV]: [{ rule: 'self == "string value"', messageExpression: '   ' }] },
      },
    });
    expectExactly(lint(yaml), [
      ['Invalid', `${S}.properties[f1].${XV}[0].messageExpression`, 'messageExpression compilation failed: '],
      ['Invalid', `${S}.properties[f2].${XV}[0].messageExpression`, 'messageExpression must evaluate to a string'],
      ['Required', `${S}.properties[f3].${XV}[0].messageExpression`, 'messageExpression must be non-empty if specified'],
    ]);
  });

  it('TV82 f1 (syntax part): messageExpression that does not parse', () => {
    const yaml = withSchema({
      type: 'object',
      properties: { f1: { type: 'string', [XV]: [{ rule: 'self == "string value"', messageExpression: 'self + " ' }] } },
    });
    expectExactly(lint(yaml), [['Invalid', `${S}.properties[f1].${XV}[0].messageExpression`, 'messageExpression compilation failed: ']]);
  });

  it('TV82 f3 (shape part): blank messageExpression', () => {
    const yaml = withSchema({
      type: 'object',
      properties: { f3: { type: 'string', [XV]: [{ rule: 'self == "string value"', messageExpression: '   ' }] } },
    });
    expectExactly(lint(yaml), [
      ['Required', `${S}.properties[f3].${XV}[0].messageExpression`, 'messageExpression must be non-empty if specified'],
    ]);
  });

  const tv83 = (limits: boolean) =>
    value({
      type: 'array',
      ...(limits ? { maxItems: 10 } : {}),
      items: {
        type: 'object',
        ...(limits ? { maxProperties: 10 } : {}),
        additionalProperties: {
          type: 'object',
          required: ['key'],
          properties: { key: { type: 'string', ...(limits ? { maxLength: 10 } : {}) } },
        },
      },
      [XV]: [{ rule: 'self.all(x, x.all(y, x[y].key == x[y].key))' }],
    });

  it('TV83 rule too expensive', () => {
    const R = `${S}.properties[value].${XV}[0].rule`;
    expectExactly(lint(tv83(false)), [
      ['Forbidden', R, 'estimated rule cost exceeds budget by factor of'],
      ['Forbidden', R, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'],
      ['Forbidden', S, 'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of'],
    ]);
  });

  it('TV83 variant: with maxItems, maxProperties and maxLength the rule is accepted', () => {
    expectNoErrors(lint(tv83(true)));
  });

  it('TV84 invalid structure stops CEL', () => {
    const yaml = withSchema({
      type: 'object',
      properties: { field: { type: 'integer' } },
      additionalProperties: { type: 'string' },
      [XV]: [{ rule: 'self.invalidFieldName > 50' }],
    });
    expectExactly(lint(yaml), [
      ['Forbidden', `${S}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'],
      ['Forbidden', `${S}.additionalProperties`, 'must not be used at the root'],
    ]);
  });
});
