// crd-validation.md §21 F. Defaults (TV65–TV71).
import { describe, it } from 'vitest';
import { S, V, expectExactly, expectNoErrors, lint, version, withSchema, withVersions } from './util.js';

const UNKNOWN = 'must not have unknown fields';
const TOP_META = 'must not be set in top-level metadata';
const VALID_META = 'must result in valid metadata';

describe('§21 F. Defaults', () => {
  it('TV65 defaults inside junctors', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        a: { type: 'number', not: { default: 42 }, anyOf: [{ default: 42 }], allOf: [{ default: 42 }], oneOf: [{ default: 42 }] },
      },
    });
    const A = `${S}.properties[a]`;
    expectExactly(lint(yaml), [
      ['Forbidden', `${A}.not.default`, 'must be undefined to be structural'],
      ['Forbidden', `${A}.allOf[0].default`, 'must be undefined to be structural'],
      ['Forbidden', `${A}.anyOf[0].default`, 'must be undefined to be structural'],
      ['Forbidden', `${A}.oneOf[0].default`, 'must be undefined to be structural'],
    ]);
  });

  it('TV66 invalid defaults', () => {
    const foo = { foo: { type: 'string' } };
    const meta = { apiVersion: 'foo/v1', kind: 'v1' };
    const yaml = withSchema({
      type: 'object',
      properties: {
        a: { type: 'object', properties: foo, default: { foo: 'abc', bar: 42 } },
        b: { type: 'object', properties: foo, default: { foo: 'abc' } },
        c: { type: 'object', properties: foo, default: { foo: 42 } },
        d: {
          type: 'object',
          properties: { good: { type: 'string', pattern: 'a' }, bad: { type: 'string', pattern: 'b' } },
          default: { good: 'a', bad: 'a' },
        },
        e: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: {
            preserveUnknownFields: { type: 'object', default: { foo: 'abc', bar: 42 } },
            nestedProperties: { type: 'object', properties: foo, default: { foo: 'abc', bar: 42 } },
          },
        },
        'embedded-fine': {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: foo,
          default: { foo: 'abc', ...meta, metadata: { name: 'foo' } },
        },
        'embedded-preserve': {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
          properties: foo,
          default: { foo: 'abc', ...meta, metadata: { name: 'foo' }, bar: 42 },
        },
        'embedded-preserve-unpruned-objectmeta': {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
          properties: foo,
          default: { foo: 'abc', ...meta, metadata: { name: 'foo', unspecified: 'bar' }, bar: 42 },
        },
      },
    });
    expectExactly(lint(yaml), [
      ['Invalid', `${S}.properties[a].default`, UNKNOWN],
      ['TypeInvalid', `${S}.properties[c].default.foo`, 'must be of type string'],
      ['Invalid', `${S}.properties[d].default.bad`, "should match 'b'"],
      ['Invalid', `${S}.properties[e].properties[preserveUnknownFields].default`, UNKNOWN],
      ['Invalid', `${S}.properties[e].properties[nestedProperties].default`, UNKNOWN],
    ]);
  });

  it('TV67 default on top-level metadata', () => {
    const yaml = withSchema({ type: 'object', properties: { metadata: { type: 'object', default: { name: 'foo' } } } });
    expectExactly(lint(yaml), [['Forbidden', `${S}.properties[metadata].default`, TOP_META]]);
  });

  it('TV68 default inside metadata additionalProperties', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        embedded: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            metadata: {
              type: 'object',
              properties: { annotations: { type: 'object', additionalProperties: { type: 'string', default: 'abc' } } },
            },
          },
        },
      },
    });
    expectExactly(lint(yaml), [
      [
        'Forbidden',
        `${S}.properties[embedded].properties[metadata].properties[annotations].additionalProperties.default`,
        'must not be set inside additionalProperties applying to object metadata',
      ],
    ]);
  });

  it('TV69 metadata defaults from the 1.15 era', () => {
    const emb = { type: 'object', 'x-kubernetes-embedded-resource': true };
    const yaml = withVersions([
      version('v1', true, {
        type: 'object',
        properties: {
          metadata: { type: 'object', default: { name: 'foo' } },
          embedded: { ...emb, properties: { metadata: { type: 'object', default: { name: 'foo', unknown: 42 } } } },
        },
      }),
      version('v2', false, {
        type: 'object',
        properties: {
          metadata: { type: 'object', properties: { name: { type: 'string', default: 'foo' } } },
          embedded: {
            ...emb,
            properties: {
              apiVersion: { type: 'string', default: 'v1' },
              kind: { type: 'string', default: 'Pod' },
              metadata: { type: 'object', properties: { name: { type: 'string', default: 'foo' } } },
            },
          },
        },
      }),
      version('v3', false, {
        type: 'object',
        properties: {
          embedded: {
            ...emb,
            properties: {
              apiVersion: { type: 'string', default: 'v1' },
              kind: { type: 'string', default: '%' },
              metadata: { type: 'object', default: { labels: { bar: 'x y' } } },
            },
          },
        },
      }),
      version('v4', false, {
        type: 'object',
        properties: {
          embedded: {
            ...emb,
            properties: {
              metadata: {
                type: 'object',
                properties: {
                  name: { type: 'string', default: 42 },
                  labels: { type: 'object', properties: { bar: { type: 'string', default: 42 } } },
                },
              },
            },
          },
        },
      }),
    ]);
    const E = (i: number) => `${V(i)}.properties[embedded].properties`;
    expectExactly(lint(yaml), [
      ['Forbidden', `${V(0)}.properties[metadata].default`, TOP_META],
      ['Forbidden', `${V(1)}.properties[metadata].properties[name].default`, TOP_META],
      ['Invalid', `${E(2)}[metadata].default`, VALID_META],
      ['Invalid', `${E(2)}[kind].default`, VALID_META],
      ['Invalid', `${E(3)}[metadata].properties[labels].properties[bar].default`, VALID_META],
      ['Invalid', `${E(3)}[metadata].properties[name].default`, VALID_META],
    ]);
  });

  const tv70 = (name: string, value: string, object: { field1: number; field2: number }) =>
    withSchema({
      type: 'object',
      properties: {
        embedded: {
          type: 'object',
          properties: {
            metadata: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              properties: {
                name: { type: 'string', 'x-kubernetes-validations': [{ rule: "self == 'singleton'" }], default: name },
              },
            },
          },
        },
        value: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.startsWith('kube')" }], default: value },
        object: {
          type: 'object',
          properties: { field1: { type: 'integer' }, field2: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'self.field1 < self.field2' }],
          default: object,
        },
      },
    });

  // All three expected errors come from evaluating the CEL rules against the defaults.
  it('TV70 defaults that fail CEL rules', () => {
    expectExactly(lint(tv70('nope', 'nope', { field1: 2, field2: 1 })), [
      ['Invalid', `${S}.properties[embedded].properties[metadata].properties[name].default`],
      ['Invalid', `${S}.properties[value].default`, "failed rule: self.startsWith('kube')"],
      ['Invalid', `${S}.properties[object].default`],
    ]);
  });

  it('TV70 variant: defaults that satisfy their CEL rules give no errors', () => {
    expectNoErrors(lint(tv70('singleton', 'kube-everything', { field1: 1, field2: 2 })));
  });

  it('TV71 defaults with preserveUnknownFields true', () => {
    const yaml = withSchema({ type: 'object', properties: { a: { type: 'number', default: 42 } } }, (c) => {
      c.spec.preserveUnknownFields = true;
    });
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.preserveUnknownFields', 'must be false in order to use defaults in the schema'],
      [
        'Invalid',
        'spec.preserveUnknownFields',
        'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ],
    ]);
  });
});
