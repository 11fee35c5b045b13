import { describe, expect, it } from 'vitest';
import { Loc } from '../../src/core/path.js';
import { applyDefaults } from '../../src/schema/behaviours/default.js';
import { prune } from '../../src/schema/behaviours/prune.js';
import { pruneNonNullableNullsWithoutDefaults } from '../../src/schema/behaviours/prune-nulls.js';
import { validateDefaults } from '../../src/schema/defaults.js';
import { resolveDotted } from '../../src/schema/resolve.js';
import { asEmbeddedResource, buildStructural, fieldSchema } from '../../src/crd/structural-schema.js';
import { cel } from '../helpers/cel.js';

/** Decoded JSON, as the manifest reader gives it: `__proto__` is an own key there. */
const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

describe('buildStructural', () => {
  const s = buildStructural(
    json(`{
      "type": "object", "title": "T", "description": "D", "nullable": true,
      "properties": {
        "plain": {"type": "string", "maxLength": 5, "pattern": "^a", "format": "uri"},
        "list": {"type": "array", "maxItems": 3, "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "deep": {"type": "object", "properties": {"leaf": {"type": "integer", "default": 1}}},
        "emb": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
        "ios": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
        "rules": {"type": "object", "maxProperties": 2, "x-kubernetes-validations": [{"rule": "true"}], "additionalProperties": {"type": "string"}},
        "notAMap": 7,
        "inAllOf": {"type": "object", "allOf": [{"properties": {"x": {"default": 1}}}]}
      },
      "default": null
    }`),
  );

  it('reads generic, extensions and value validations', () => {
    expect(s.generic).toMatchObject({ type: 'object', title: 'T', description: 'D', nullable: true, hasDefault: false });
    const plain = s.properties.get('plain')!;
    expect(plain.valueValidation).toMatchObject({ maxLength: 5, pattern: '^a', format: 'uri' });
    expect(s.properties.get('list')!.valueValidation.maxItems).toBe(3);
    expect(s.properties.get('list')!.extensions.listType).toBe('set');
    expect(s.properties.get('list')!.items!.generic.type).toBe('string');
    expect(s.properties.get('rules')!.valueValidation.maxProperties).toBe(2);
    expect(s.properties.get('rules')!.additionalProperties!.schema!.generic.type).toBe('string');
    const ios = s.properties.get('ios')!;
    expect(ios.extensions.intOrString).toBe(true);
    expect(ios.valueValidation.anyOf.map((n) => n.raw['type'])).toEqual(['integer', 'string']);
    expect(s.properties.get('emb')!.extensions).toMatchObject({ embeddedResource: true, preserveUnknownFields: true });
  });

  it('keeps declared properties in written order, only those whose value is a schema', () => {
    expect([...s.properties.keys()]).toEqual(['plain', 'list', 'deep', 'emb', 'ios', 'rules', 'inAllOf']);
  });

  it('precomputes the facts below each node through properties, additionalProperties and items only', () => {
    expect(s.facts).toEqual({ defaultsBelow: true, listTypesBelow: true, embeddedBelow: true, celBelow: true, celInNested: false, celInChildren: true });
    expect(s.properties.get('plain')!.facts).toEqual({
      defaultsBelow: false,
      listTypesBelow: false,
      embeddedBelow: false,
      celBelow: false,
      celInNested: false,
      celInChildren: false,
    });
    expect(s.properties.get('deep')!.facts.defaultsBelow).toBe(true);
    expect(s.properties.get('deep')!.properties.get('leaf')!.generic).toMatchObject({ hasDefault: true, default: 1 });
    expect(s.properties.get('list')!.facts.listTypesBelow).toBe(true);
    expect(s.properties.get('rules')!.facts.celBelow).toBe(true);
    // a default inside allOf is no structural default
    expect(s.properties.get('inAllOf')!.facts.defaultsBelow).toBe(false);
  });

  it('finds CEL rules wherever the record holds them, and tells nested and child ones apart', () => {
    const t = buildStructural({
      type: 'object',
      properties: {
        nested: { type: 'object', allOf: [{ 'x-kubernetes-validations': [{ rule: 'true' }] }] },
        tuple: { type: 'array', items: [{ type: 'string', 'x-kubernetes-validations': [] }] },
        none: { type: 'object', properties: { a: { type: 'string' } } },
      },
    });
    expect(t.properties.get('nested')!.facts).toMatchObject({ celBelow: true, celInNested: true, celInChildren: false });
    // an items array has no typed items, but its rules are still below the node
    expect(t.properties.get('tuple')!.facts).toMatchObject({ celBelow: true, celInNested: false, celInChildren: true });
    expect(t.properties.get('none')!.facts.celBelow).toBe(false);
    expect(t.facts).toMatchObject({ celBelow: true, celInNested: false, celInChildren: true });
  });

  it('precomputes how CEL binds a node', () => {
    const t = buildStructural({
      type: 'object',
      properties: {
        n: { type: 'number' },
        set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        when: { type: 'string', format: 'date-time' },
        both: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
        map: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    });
    const b = (k: string) => t.properties.get(k)!.celBinding;
    expect(b('n')).toEqual({ unsupported: false, unorderedLists: false });
    expect(b('set')).toEqual({ unsupported: false, unorderedLists: true });
    expect(b('when').unsupported).toBe(true);
    // properties written (even empty) next to additionalProperties
    expect(b('both').unsupported).toBe(true);
    expect(t.properties.get('both')!.declaresProperties).toBe(true);
    expect(b('map')).toEqual({ unsupported: false, unorderedLists: false });
    expect(t.celBinding).toEqual({ unsupported: true, unorderedLists: true });
  });

  it('keeps only the string x-kubernetes-list-map-keys (what the list types, validator and CEL walk read)', () => {
    const t = buildStructural({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 1, 'port'], items: { type: 'object' } });
    expect(t.extensions.listMapKeys).toEqual(['name', 'port']);
  });

  it('treats additionalProperties bool forms as having no schema, and items arrays as no items', () => {
    const b = buildStructural({ type: 'object', additionalProperties: false, properties: { a: { type: 'array', items: [{ type: 'string' }] } } });
    expect(b.additionalProperties).toEqual({ schema: undefined, bool: false });
    expect(b.properties.get('a')!.items).toBeUndefined();
  });

  it('shares the node of a record reached twice', () => {
    const shared = { type: 'string', default: 'x' };
    const t = buildStructural({ type: 'object', properties: { a: shared, b: shared } });
    expect(t.properties.get('a')).toBe(t.properties.get('b'));
  });

  it('asEmbeddedResource marks a copy and leaves the node alone', () => {
    const plain = buildStructural({ type: 'object' });
    const e = asEmbeddedResource(plain);
    expect(e.extensions.embeddedResource).toBe(true);
    expect(e.raw['x-kubernetes-embedded-resource']).toBe(true);
    expect(plain.extensions.embeddedResource).toBe(false);
    expect(asEmbeddedResource(e)).toBe(e);
  });
});

describe('own-key lookups for names that Object.prototype has', () => {
  const NAMES = ['__proto__', 'constructor', 'toString'] as const;
  const undeclared = buildStructural({ type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } });
  const declared = buildStructural(
    json(`{"type": "object", "properties": {"spec": {"type": "object", "properties": {
      "__proto__": {"type": "string", "default": "p"},
      "constructor": {"type": "string", "default": "c"},
      "toString": {"type": "string", "default": "t"}
    }}}}`),
  );

  it('an undeclared name has no schema', () => {
    const spec = undeclared.properties.get('spec')!;
    for (const n of NAMES) {
      expect(spec.properties.get(n)).toBeUndefined();
      expect(fieldSchema(spec, n)).toBeUndefined();
      expect(resolveDotted(undeclared, `.spec.${n}`)).toEqual({ kind: 'missing', at: n });
    }
  });

  it('a declared name is found', () => {
    const spec = declared.properties.get('spec')!;
    expect([...spec.properties.keys()]).toEqual([...NAMES]);
    for (const n of NAMES) {
      const r = resolveDotted(declared, `.spec.${n}`);
      expect(r.kind === 'found' && r.schema.generic.type).toBe('string');
    }
  });

  it('pruning removes undeclared ones and keeps declared ones', () => {
    const input = json(`{"spec": {"__proto__": "a", "constructor": "b", "toString": "c", "replicas": 1}}`);
    const pruned = prune(input, undeclared);
    expect(JSON.stringify(pruned.value)).toBe('{"spec":{"replicas":1}}');
    expect(pruned.unknownFieldPaths).toEqual(['spec.__proto__', 'spec.constructor', 'spec.toString']);
    const kept = prune(input, declared);
    expect(JSON.stringify(kept.value)).toBe('{"spec":{"__proto__":"a","constructor":"b","toString":"c"}}');
    expect(Object.getPrototypeOf((kept.value as { spec: object }).spec)).toBe(Object.prototype);
  });

  it('defaulting sets declared ones as own keys and invents nothing for undeclared ones', () => {
    const d = applyDefaults({ spec: {} }, declared);
    const spec = (d.value as { spec: Record<string, unknown> }).spec;
    expect(Object.keys(spec)).toEqual([...NAMES]);
    expect(JSON.stringify(spec)).toBe('{"__proto__":"p","constructor":"c","toString":"t"}');
    expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
    expect(applyDefaults({ spec: {} }, undeclared).changes).toEqual([]);
  });

  it('null dropping reads only declared schemas', () => {
    const input = json(`{"spec": {"__proto__": null, "constructor": null, "toString": null}}`);
    expect(JSON.stringify(pruneNonNullableNullsWithoutDefaults(input, undeclared).value)).toBe(JSON.stringify(input));
    const noDefaults = buildStructural(json(`{"type": "object", "properties": {"spec": {"type": "object", "properties": {"__proto__": {"type": "string"}, "toString": {"type": "string"}}}}}`));
    expect(JSON.stringify(pruneNonNullableNullsWithoutDefaults(input, noDefaults).value)).toBe('{"spec":{"constructor":null}}');
  });

  it('defaults validation finds undeclared ones unknown and declared ones fine', () => {
    const withDefault = (decl: string) =>
      buildStructural(json(`{"type": "object", "properties": {"spec": {"type": "object", ${decl} "default": {"__proto__": "x", "toString": "y"}}}}`));
    const loc = new Loc('spec.validation.openAPIV3Schema', []);
    expect(validateDefaults(withDefault(''), loc, 36, cel).map((e) => e.detail)).toEqual(['must not have unknown fields']);
    expect(validateDefaults(withDefault('"properties": {"__proto__": {"type": "string"}, "toString": {"type": "string"}},'), loc, 36, cel)).toEqual([]);
  });
});
