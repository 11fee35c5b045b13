// crd-validation.md §21 D. Embedded resources and int-or-string (TV40–TV45).
import { describe, it } from 'vitest';
import { S, expectExactly, lint, withSchema } from './util.js';

const EMB_PROPS = 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields';
const IN_META = 'must not be used inside of resource meta';
const EMB_ADDL = 'must not be used if x-kubernetes-embedded-resource is set';
const EMB = { type: 'object', 'x-kubernetes-embedded-resource': true };
const EMB_PRESERVE = { ...EMB, 'x-kubernetes-preserve-unknown-fields': true };

describe('§21 D. Embedded resources and int-or-string', () => {
  it('TV40 embedded resource with empty properties', () => {
    const yaml = withSchema({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: { nil: { ...EMB }, empty: { ...EMB, properties: {} } },
    });
    expectExactly(lint(yaml), [
      ['Required', `${S}.properties[nil].properties`, EMB_PROPS],
      ['Required', `${S}.properties[empty].properties`, EMB_PROPS],
    ]);
  });

  it('TV41 embedded resource inside resource meta', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        embedded: {
          ...EMB,
          properties: {
            metadata: { ...EMB_PRESERVE },
            apiVersion: { type: 'string', properties: { foo: { ...EMB_PRESERVE } } },
            kind: { type: 'string', properties: { foo: { ...EMB_PRESERVE } } },
          },
        },
      },
    });
    const E = `${S}.properties[embedded].properties`;
    expectExactly(lint(yaml), [
      ['Forbidden', `${E}[metadata].x-kubernetes-embedded-resource`, IN_META],
      ['Forbidden', `${E}[apiVersion].properties[foo].x-kubernetes-embedded-resource`, IN_META],
      ['Forbidden', `${E}[kind].properties[foo].x-kubernetes-embedded-resource`, IN_META],
    ]);
  });

  it('TV42 additionalProperties on an embedded resource', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        embedded1: { ...EMB, additionalProperties: { type: 'string' } },
        embedded2: { ...EMB_PRESERVE, additionalProperties: { type: 'string' } },
      },
    });
    expectExactly(lint(yaml), [
      ['Forbidden', `${S}.properties[embedded1].additionalProperties`, EMB_ADDL],
      ['Required', `${S}.properties[embedded1].properties`, EMB_PROPS],
      ['Forbidden', `${S}.properties[embedded2].additionalProperties`, EMB_ADDL],
    ]);
  });

  it('TV43 int-or-string plus preserve-unknown-fields', () => {
    const yaml = withSchema({ 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-int-or-string': true });
    expectExactly(lint(yaml), [
      ['Invalid', `${S}.x-kubernetes-preserve-unknown-fields`, 'must be false if x-kubernetes-int-or-string is true'],
    ]);
  });

  it('TV44 embedded resource with the wrong type', () => {
    const yaml = withSchema({ type: 'array', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
    expectExactly(lint(yaml), [
      ['Invalid', `${S}.type`, 'must be object if x-kubernetes-embedded-resource is true', 'Invalid value: "array"'],
      ['Invalid', `${S}.type`, 'must be object at the root'],
      ['Required', `${S}.items`, 'must be specified'],
    ]);
  });

  it('TV45 embedded resource with an empty type', () => {
    const yaml = withSchema({ type: '', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
    expectExactly(lint(yaml), [['Required', `${S}.type`, 'must be object if x-kubernetes-embedded-resource is true']]);
  });
});
