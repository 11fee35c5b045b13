// crd-validation.md §21 C. Structural schema (TV30–TV39).
import { describe, it } from 'vitest';
import { S, expectExactly, expectIncludes, expectNoErrors, lint, withSchema, type Exp } from './util.js';

const OBJ_FIELD = 'must not be empty for specified object fields';
const ARR_ITEM = 'must not be empty for specified array items';
const EMPTY = 'must be empty to be structural';
const UNDEF = 'must be undefined to be structural';
const FALSE = 'must be false to be structural';

describe('§21 C. Structural schema', () => {
  it('TV30 types missing everywhere', () => {
    const yaml = withSchema({
      properties: {
        foo: { properties: { a: {} } },
        bar: { items: { additionalProperties: { properties: { a: {} }, items: {} } } },
        abc: { additionalProperties: { properties: { a: { items: { additionalProperties: {} } } } } },
        json: { 'x-kubernetes-preserve-unknown-fields': true, properties: { a: {} } },
        'int-or-string': { 'x-kubernetes-int-or-string': true, properties: { a: {} } },
      },
    });
    // The vector says "Expect" (not "exactly"): every listed error must be present.
    expectIncludes(lint(yaml), [
      ['Required', `${S}.properties[foo].properties[a].type`, OBJ_FIELD],
      ['Required', `${S}.properties[foo].type`, OBJ_FIELD],
      ['Required', `${S}.properties[int-or-string].properties[a].type`, OBJ_FIELD],
      ['Required', `${S}.properties[json].properties[a].type`, OBJ_FIELD],
      ['Required', `${S}.properties[abc].additionalProperties.properties[a].items.additionalProperties.type`, OBJ_FIELD],
      ['Required', `${S}.properties[abc].additionalProperties.properties[a].items.type`, ARR_ITEM],
      ['Required', `${S}.properties[abc].additionalProperties.properties[a].type`, OBJ_FIELD],
      ['Required', `${S}.properties[abc].additionalProperties.type`, OBJ_FIELD],
      ['Required', `${S}.properties[abc].type`, OBJ_FIELD],
      ['Required', `${S}.properties[bar].items.additionalProperties.items.type`, ARR_ITEM],
      ['Required', `${S}.properties[bar].items.additionalProperties.properties[a].type`, OBJ_FIELD],
      ['Required', `${S}.properties[bar].items.additionalProperties.type`, OBJ_FIELD],
      ['Required', `${S}.properties[bar].items.type`, ARR_ITEM],
      ['Required', `${S}.properties[bar].type`, OBJ_FIELD],
      ['Required', `${S}.type`, 'must not be empty at the root'],
    ]);
  });

  it('TV31 forbidden keywords inside junctors', () => {
    const bad = { type: 'string', additionalProperties: true, title: 'hello', description: 'world', nullable: true };
    const yaml = withSchema({
      type: 'object',
      properties: { foo: { type: 'string' } },
      not: bad,
      allOf: [{ properties: { foo: bad } }],
      anyOf: [{ items: bad }],
      oneOf: [{ properties: { foo: bad } }],
    });
    const exp: Exp[] = [];
    for (const x of [`${S}.not`, `${S}.allOf[0].properties[foo]`, `${S}.anyOf[0].items`, `${S}.oneOf[0].properties[foo]`]) {
      exp.push(
        ['Forbidden', `${x}.type`, EMPTY],
        ['Forbidden', `${x}.title`, EMPTY],
        ['Forbidden', `${x}.description`, EMPTY],
        ['Forbidden', `${x}.additionalProperties`, UNDEF],
        ['Forbidden', `${x}.nullable`, FALSE],
      );
    }
    exp.push(['Required', `${S}.items`, 'because it is defined in spec.validation.openAPIV3Schema.anyOf[0].items']);
    expectExactly(lint(yaml), exp);
  });

  it('TV32 int-or-string variants', () => {
    const ios = { 'x-kubernetes-int-or-string': true };
    const yaml = withSchema({
      type: 'object',
      properties: {
        a: { ...ios },
        b: { ...ios, anyOf: [{ type: 'integer' }, { type: 'string' }], allOf: [{ pattern: 'abc' }] },
        c: { ...ios, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: 'abc' }, { pattern: 'abc' }] },
        d: { ...ios, anyOf: [{ type: 'integer' }, { type: 'string', pattern: 'abc' }] },
        e: { ...ios, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string', pattern: 'abc' }] }, { pattern: 'abc' }] },
        f: { ...ios, anyOf: [{ type: 'integer' }, { type: 'string' }, { pattern: 'abc' }] },
        g: { ...ios, anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    });
    expectExactly(
      lint(yaml),
      [
        'd].anyOf[0]',
        'd].anyOf[1]',
        'e].allOf[0].anyOf[0]',
        'e].allOf[0].anyOf[1]',
        'f].anyOf[0]',
        'f].anyOf[1]',
        'g].anyOf[0]',
        'g].anyOf[1]',
      ].map((p): Exp => ['Forbidden', `${S}.properties[${p}.type`, EMPTY]),
    );
  });

  it('TV33 extensions inside junctors', () => {
    const body = {
      properties: {
        'int-or-string': { 'x-kubernetes-int-or-string': true },
        'embedded-resource': { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    };
    const yaml = withSchema({
      type: 'object',
      properties: {
        'int-or-string': { 'x-kubernetes-int-or-string': true },
        'embedded-resource': { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
      not: body,
      allOf: [body],
      anyOf: [body],
      oneOf: [body],
    });
    const exp: Exp[] = [];
    for (const j of ['not', 'allOf[0]', 'anyOf[0]', 'oneOf[0]']) {
      exp.push(
        ['Forbidden', `${S}.${j}.properties[embedded-resource].x-kubernetes-preserve-unknown-fields`, FALSE],
        ['Forbidden', `${S}.${j}.properties[embedded-resource].x-kubernetes-embedded-resource`, FALSE],
        ['Forbidden', `${S}.${j}.properties[int-or-string].x-kubernetes-int-or-string`, FALSE],
      );
    }
    expectExactly(lint(yaml), exp);
  });

  it('TV34 incomplete junctors at the root', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        b: { type: 'object', properties: { b: { type: 'array' } } },
        c: { type: 'array', items: { type: 'object' } },
        d: { type: 'array' },
      },
      not: {
        properties: {
          a: {},
          b: { not: { properties: { a: {}, b: { items: {} } } } },
          c: { items: { not: { items: { properties: { a: {} } } } } },
          d: { items: {} },
        },
      },
      allOf: [{ properties: { e: {} } }],
      anyOf: [{ properties: { f: {} } }],
      oneOf: [{ properties: { g: {} } }],
    });
    const because = 'because it is defined in spec.validation.openAPIV3Schema.';
    expectExactly(lint(yaml), [
      ['Required', `${S}.properties[a]`, `${because}not.properties[a]`],
      ['Required', `${S}.properties[b].properties[a]`, `${because}not.properties[b].not.properties[a]`],
      ['Required', `${S}.properties[b].properties[b].items`, `${because}not.properties[b].not.properties[b].items`],
      ['Required', `${S}.properties[c].items.items`, `${because}not.properties[c].items.not.items`],
      ['Required', `${S}.properties[d].items`, `${because}not.properties[d].items`],
      ['Required', `${S}.properties[e]`, `${because}allOf[0].properties[e]`],
      ['Required', `${S}.properties[f]`, `${because}anyOf[0].properties[f]`],
      ['Required', `${S}.properties[g]`, `${because}oneOf[0].properties[g]`],
      ['Required', `${S}.properties[b].properties[b].items`, 'must be specified'],
      ['Required', `${S}.properties[d].items`, 'must be specified'],
    ]);
  });

  it('TV35 completeness is not checked below the root', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ properties: { ghost: { minLength: 1 } } }] },
      },
    });
    expectNoErrors(lint(yaml));
  });

  it('TV36 contradicting meta field types', () => {
    const metaPatterns = { name: { type: 'string', pattern: 'abc' }, generateName: { type: 'string', pattern: 'abc' } };
    const invalid = {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: {
        apiVersion: { type: 'number' },
        kind: { type: 'number' },
        metadata: { type: 'number', properties: { ...metaPatterns, generation: { type: 'integer', minimum: 42 } } },
      },
    };
    const yaml = withSchema({
      type: 'object',
      properties: {
        apiVersion: { type: 'number' },
        kind: { type: 'number' },
        metadata: { type: 'number', properties: { ...metaPatterns, generation: { type: 'integer' } } },
        valid: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            apiVersion: { type: 'string' },
            kind: { type: 'string' },
            metadata: { type: 'object', properties: { ...metaPatterns, generation: { type: 'integer', minimum: 42 } } },
          },
        },
        invalid,
        nested: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { invalid } },
        noEmbeddedObject: {
          type: 'object',
          properties: { apiVersion: { type: 'number' }, kind: { type: 'number' }, metadata: { type: 'number' } },
        },
      },
    });
    const exp: Exp[] = [
      [
        'Forbidden',
        `${S}.properties[metadata]`,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ],
    ];
    for (const p of [S, `${S}.properties[invalid]`, `${S}.properties[nested].properties[invalid]`]) {
      exp.push(
        ['Invalid', `${p}.properties[apiVersion].type`, 'must be string'],
        ['Invalid', `${p}.properties[kind].type`, 'must be string'],
        ['Invalid', `${p}.properties[metadata].type`, 'must be object'],
      );
    }
    expectExactly(lint(yaml), exp);
  });

  it('TV37 description on root metadata', () => {
    const yaml = withSchema({ type: 'object', properties: { metadata: { type: 'object', description: 'std metadata' } } });
    expectExactly(lint(yaml), [
      [
        'Forbidden',
        `${S}.properties[metadata]`,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ],
    ]);
  });

  it('TV38 metadata restricted to name and generateName', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        metadata: {
          type: 'object',
          properties: { name: { type: 'string', pattern: '^[a-z]+$' }, generateName: { type: 'string', pattern: '^[a-z]+$' } },
        },
      },
    });
    expectNoErrors(lint(yaml));
  });

  it('TV39 invalid regex', () => {
    const yaml = withSchema({ type: 'object', properties: { foo: { type: 'string', pattern: '+' } } });
    expectExactly(lint(yaml), [
      [
        'Invalid',
        `${S}.properties[foo].pattern`,
        'must be a valid regular expression, but isn\'t: error parsing regexp: missing argument to repetition operator: `+`',
      ],
    ]);
  });
});
