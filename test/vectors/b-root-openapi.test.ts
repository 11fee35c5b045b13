// crd-validation.md §21 B. Schema root and the OpenAPI subset (TV13–TV29).
import { describe, it } from 'vitest';
import { S, expectExactly, expectNoErrors, lint, version, withSchema, withVersions, type Obj } from './util.js';

const TYPES = 'supported values: "array", "boolean", "integer", "number", "object", "string"';
const ROOT_OBJECT = 'must be object at the root';
const ALLOW_LIST =
  'only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled';
const withStatus = (c: Obj) => {
  c.spec.versions[0].subresources = { status: {} };
};

describe('§21 B. Schema root and the OpenAPI subset', () => {
  it('TV13 invalid property type', () => {
    const yaml = withSchema({ type: 'object', properties: { foo: { type: 'bogus' } } });
    expectExactly(lint(yaml), [['NotSupported', `${S}.properties[foo].type`, TYPES]]);
  });

  it('TV14 invalid root type', () => {
    expectExactly(lint(withSchema({ type: 'bogus' })), [
      ['NotSupported', `${S}.type`, TYPES],
      ['Invalid', `${S}.type`, ROOT_OBJECT],
    ]);
  });

  it('TV15 root type null', () => {
    expectExactly(lint(withSchema({ type: 'null' })), [
      ['NotSupported', `${S}.type`],
      ['Forbidden', `${S}.type`, 'type cannot be set to null, use nullable as an alternative'],
      ['Invalid', `${S}.type`, ROOT_OBJECT],
    ]);
  });

  it('TV16 nullable at the root', () => {
    expectExactly(lint(withSchema({ type: 'object', nullable: true })), [
      ['Forbidden', `${S}.nullable`, 'nullable cannot be true at the root'],
    ]);
  });

  it('TV17 root type string with status', () => {
    expectExactly(lint(withSchema({ type: 'string' }, withStatus)), [
      ['Invalid', `${S}.type`, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'],
      ['Invalid', `${S}.type`, ROOT_OBJECT],
    ]);
  });

  it('TV18 anyOf at the root with status', () => {
    const yaml = withSchema({ anyOf: [{ description: 'First schema' }, { description: 'Second schema' }] }, withStatus);
    expectExactly(lint(yaml), [
      ['Invalid', S, ALLOW_LIST],
      ['Required', `${S}.type`, 'must not be empty at the root'],
      ['Forbidden', `${S}.anyOf[0].description`, 'must be empty to be structural'],
      ['Forbidden', `${S}.anyOf[1].description`, 'must be empty to be structural'],
    ]);
  });

  const tv19 = {
    type: 'object',
    properties: { spec: { type: 'object' }, status: { type: 'object' } },
    anyOf: [{ required: ['spec'] }, { required: ['status'] }],
  };

  it('TV19 structural anyOf at the root without status is valid', () => {
    expectNoErrors(lint(withSchema(tv19)));
  });

  it('TV19 variant: structural anyOf at the root with status', () => {
    expectExactly(lint(withSchema(tv19, withStatus)), [['Invalid', S, ALLOW_LIST]]);
  });

  it('TV20 everything allowed at the root with status', () => {
    const yaml = withSchema(
      {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        'x-kubernetes-validations': [{ rule: 'size(self.metadata.name) > 3' }],
        properties: { metadata: { type: 'object', properties: { name: { type: 'string' } } } },
      },
      withStatus,
    );
    expectNoErrors(lint(yaml));
  });

  it('TV21 properties together with additionalProperties: false', () => {
    const yaml = withSchema({
      type: 'object',
      properties: { foo: { type: 'object', properties: { bar: { type: 'object' } }, additionalProperties: false } },
    });
    expectExactly(lint(yaml), [
      ['Forbidden', `${S}.properties[foo].additionalProperties`, 'additionalProperties and properties are mutual exclusive'],
    ]);
  });

  it('TV22 map type is allowed', () => {
    const yaml = withSchema({ type: 'object', properties: { foo: { type: 'object', additionalProperties: { type: 'string' } } } });
    expectNoErrors(lint(yaml));
  });

  it('TV23 preserve-unknown-fields false hides everything else', () => {
    expectExactly(lint(withSchema({ 'x-kubernetes-preserve-unknown-fields': false })), [
      ['Invalid', `${S}.x-kubernetes-preserve-unknown-fields`, 'must be true or undefined'],
    ]);
  });

  it('TV24 unstructural schema shared by two versions', () => {
    const schema = {
      description: 'This is a description',
      type: 'object',
      format: 'date-time',
      title: 'This is a title',
      maximum: 10,
      exclusiveMaximum: true,
      minimum: 5,
      exclusiveMinimum: true,
      maxLength: 10,
      minLength: 5,
      pattern: '^[a-z]$',
      maxItems: 10,
      minItems: 5,
      multipleOf: 3,
      required: ['spec', 'status'],
      items: { description: 'This is a schema nested under Items' },
      properties: { spec: {}, status: {} },
      externalDocs: { description: 'This is an external documentation description' },
      example: 'This is an example',
    };
    const yaml = withVersions([version('version', true, schema), version('version2', false, schema)]);
    expectExactly(lint(yaml), [
      ['Required', `${S}.properties[spec].type`, 'must not be empty for specified object fields'],
      ['Required', `${S}.properties[status].type`, 'must not be empty for specified object fields'],
      ['Required', `${S}.items.type`, 'must not be empty for specified array items'],
    ]);
  });

  it('TV25 items given as an array', () => {
    const yaml = withSchema({ type: 'object', properties: { slice: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } } });
    expectExactly(lint(yaml), [['Forbidden', `${S}.properties[slice].items`, 'items must be a schema object and not an array']]);
  });

  it('TV26 items array inside a junctor', () => {
    const yaml = withSchema({
      type: 'object',
      properties: { slice: { type: 'array', items: { type: 'string' }, not: { items: [{ type: 'string' }] } } },
    });
    expectExactly(lint(yaml), [['Forbidden', `${S}.properties[slice].not.items`, 'items must be a schema object and not an array']]);
  });

  it('TV27 unsupported keywords', () => {
    const yaml = withSchema({
      type: 'object',
      properties: {
        a: { type: 'string', $ref: '#/definition/zeta' },
        b: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        c: { type: 'object', patternProperties: { '^x': { type: 'string' } } },
        d: { type: 'string', id: 'foo' },
      },
    });
    expectExactly(lint(yaml), [
      ['Forbidden', `${S}.properties[a].$ref`, '$ref is not supported'],
      ['Forbidden', `${S}.properties[b].uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'],
      ['Forbidden', `${S}.properties[c].patternProperties`, 'patternProperties is not supported'],
      ['Forbidden', `${S}.properties[d].id`, 'id is not supported'],
    ]);
  });

  it('TV28 $schema alone', () => {
    const yaml = withSchema({ type: 'object', properties: { a: { type: 'string', $schema: 'http://json-schema.org/draft-04/schema#' } } });
    expectExactly(lint(yaml), [['Invalid', S, "OpenAPIV3Schema 'schema' is not supported", 'Invalid value: ""']]);
  });

  it('TV29 additionalProperties at the root', () => {
    expectExactly(lint(withSchema({ type: 'object', additionalProperties: false })), [
      ['Forbidden', `${S}.additionalProperties`, 'must not be used at the root'],
    ]);
  });
});
