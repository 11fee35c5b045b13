// crd-validation.md §21 H. Subresources, printer columns, selectable fields (TV85–TV93).
import { describe, it } from 'vitest';
import { crd, expectExactly, lint, version, withVersions, type Exp, type Obj } from './util.js';

const SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
const NOT_A_FIELD = 'is an invalid path: does not refer to a valid field';
const SCALAR_ONLY = 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.';
const sf = (...paths: string[]) => paths.map((jsonPath) => ({ jsonPath }));
const objSchema = (props: Obj, required?: string[]) => ({ type: 'object', ...(required ? { required } : {}), properties: props });

describe('§21 H. Subresources, printer columns, selectable fields', () => {
  it('TV85 labelSelectorPath outside .spec and .status', () => {
    const sub = (labelSelectorPath?: string) => ({
      scale: { ...SCALE, ...(labelSelectorPath !== undefined ? { labelSelectorPath } : {}) },
    });
    const yaml = withVersions([
      version('version0', true, undefined, { subresources: sub() }),
      version('version1', false, undefined, { subresources: sub('.status.labelSelector') }),
      version('version2', false, undefined, { subresources: sub('.spec.labelSelector') }),
      version('version3', false, undefined, { subresources: sub('.labelSelector') }),
    ]);
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.versions[3].subresources.scale.labelSelectorPath', 'should be a json path under either .spec or .status'],
    ]);
  });

  it('TV86 missing scale paths', () => {
    const yaml = crd((c) => {
      c.spec.versions[0].subresources = { scale: { specReplicasPath: '', statusReplicasPath: '' } };
    });
    expectExactly(lint(yaml), [
      ['Required', 'spec.subresources.scale.specReplicasPath'],
      ['Required', 'spec.subresources.scale.statusReplicasPath'],
    ]);
  });

  it('TV87 malformed scale paths', () => {
    const yaml = crd((c) => {
      c.spec.versions[0].subresources = {
        scale: { specReplicasPath: '.status.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: '.metadata.labels' },
      };
    });
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.subresources.scale.specReplicasPath', 'should be a json path under .spec'],
      ['Invalid', 'spec.subresources.scale.statusReplicasPath', 'must be a simple json path starting with .'],
      ['Invalid', 'spec.subresources.scale.labelSelectorPath', 'should be a json path under either .spec or .status'],
    ]);
  });

  it('TV87 variant: specReplicasPath .spec.replicas[0] is accepted', () => {
    const yaml = crd((c) => {
      c.spec.versions[0].subresources = { scale: { specReplicasPath: '.spec.replicas[0]', statusReplicasPath: '.status.replicas' } };
    });
    expectExactly(lint(yaml), []);
  });

  it('TV88 printer columns', () => {
    const yaml = crd((c) => {
      c.spec.versions[0].additionalPrinterColumns = [
        { name: '', type: '', jsonPath: '' },
        { name: 'a', type: 'text', format: 'uuid', jsonPath: 'spec.a' },
        { name: 'b', type: 'string', jsonPath: '.spec.items[*].name' },
      ];
    });
    const TYPES = 'must be one of boolean,date,integer,number,string';
    expectExactly(lint(yaml), [
      ['Required', 'spec.additionalPrinterColumns[0].name'],
      ['Required', 'spec.additionalPrinterColumns[0].type', TYPES],
      ['Required', 'spec.additionalPrinterColumns[0].JSONPath'],
      ['Invalid', 'spec.additionalPrinterColumns[1].type', TYPES],
      ['Invalid', 'spec.additionalPrinterColumns[1].format', 'must be one of byte,date,date-time,double,float,int32,int64,password'],
      ['Invalid', 'spec.additionalPrinterColumns[1].JSONPath', 'must be a simple json path starting with .'],
    ]);
  });

  it('TV89 selectable fields that do not resolve', () => {
    const yaml = withVersions([
      version('version', true, objSchema({ foo: { type: 'string' } }, ['foo']), { selectableFields: sf('.foo', '.xyz') }),
      version('version2', false, objSchema({ foo: { type: 'integer' } }, ['foo']), { selectableFields: sf('.xyz', '.foo', '.abc') }),
    ]);
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.versions[0].selectableFields[1].jsonPath', NOT_A_FIELD],
      ['Invalid', 'spec.versions[1].selectableFields[0].jsonPath', NOT_A_FIELD],
      ['Invalid', 'spec.versions[1].selectableFields[2].jsonPath', NOT_A_FIELD],
    ]);
  });

  it('TV90 selectable field of the wrong type', () => {
    const yaml = withVersions([
      version('version', true, objSchema({ foo: { type: 'string' }, obj: { type: 'object' } }), { selectableFields: sf('.foo', '.obj') }),
      version('version2', false, objSchema({ foo: { type: 'integer' }, obj: { type: 'object' }, bool: { type: 'boolean' } }), {
        selectableFields: sf('.obj', '.foo', '.bool'),
      }),
    ]);
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.versions[0].selectableFields[1].jsonPath', SCALAR_ONLY],
      ['Invalid', 'spec.versions[1].selectableFields[0].jsonPath', SCALAR_ONLY],
    ]);
  });

  it('TV91 duplicate selectable fields hit the hoisting bug', () => {
    const yaml = withVersions([
      version('version', true, objSchema({ foo: { type: 'string' } }), { selectableFields: sf('.foo', '.foo') }),
      version('version2', false, objSchema({ foo: { type: 'integer' } }), { selectableFields: sf('.foo', '.foo') }),
    ]);
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.selectableFields', 'may only be set when validations.schema is included', 'Invalid value: ""'],
    ]);
  });

  it('TV91 variant: different lists per version give Duplicate errors', () => {
    const yaml = withVersions([
      version('version', true, objSchema({ foo: { type: 'string' } }), { selectableFields: sf('.foo', '.foo') }),
      version('version2', false, objSchema({ foo: { type: 'integer' } }), { selectableFields: sf('.foo', '.foo', '.foo') }),
    ]);
    expectExactly(lint(yaml), [
      ['Duplicate', 'spec.versions[0].selectableFields[1].jsonPath'],
      ['Duplicate', 'spec.versions[1].selectableFields[1].jsonPath'],
      ['Duplicate', 'spec.versions[1].selectableFields[2].jsonPath'],
    ]);
  });

  it('TV92 too many selectable fields', () => {
    const names = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9'];
    const yaml = crd((c) => {
      c.spec.versions[0].schema = { openAPIV3Schema: objSchema(Object.fromEntries(names.map((n) => [n, { type: 'string' }]))) };
      c.spec.versions[0].selectableFields = sf(...names.map((n) => `.${n}`));
    });
    expectExactly(lint(yaml), [['TooMany', 'spec.selectableFields', 'must have at most 8 items', 'Too many: 9']]);
  });

  it('TV93 identical schemas, different selectable fields', () => {
    const schema = objSchema({ foo: { type: 'string' } });
    const yaml = withVersions([
      version('version', true, schema, { selectableFields: sf('.foo') }),
      version('version2', false, schema),
    ]);
    const exp: Exp[] = [
      [
        'Invalid',
        'spec.versions[0].selectableFields',
        'may only be set when `version.schema.openAPIV3Schema` is not included',
        'Invalid value: ""',
      ],
    ];
    expectExactly(lint(yaml), exp);
  });
});
