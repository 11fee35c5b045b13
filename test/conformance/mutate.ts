/**
 * Structure-aware, seeded mutations of CRDs for differential testing against the real server.
 * Each mutation is one small edit an author could make; the server arbitrates.
 */
import { rng } from '../helpers/rng.js';

export type Obj = Record<string, unknown>;
export { rng };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every schema node of the CRD with a short description of where it is. */
function schemaNodes(crd: Obj): Obj[] {
  const out: Obj[] = [];
  const versions = ((crd['spec'] as Obj)?.['versions'] as Obj[]) ?? [];
  const visit = (s: unknown, depth: number): void => {
    if (!isObj(s) || depth > 12) return;
    out.push(s);
    const props = s['properties'];
    if (isObj(props)) for (const v of Object.values(props)) visit(v, depth + 1);
    visit(s['items'], depth + 1);
    visit(s['additionalProperties'], depth + 1);
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) for (const x of s[k] as unknown[]) visit(x, depth + 1);
    visit(s['not'], depth + 1);
  };
  for (const v of versions) visit(((v['schema'] as Obj) ?? {})['openAPIV3Schema'], 0);
  return out;
}

const TYPES = ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null', 'bogus', ''];
const PATTERNS = ['^[a-z]+$', '(?=x)', '\\d{2,1}', 'a**', '(a|b', '^\\p{L}+$', '\\1', '[[:alpha:]]', 'x{1001}', '(?i)abc', '\\Qa.b\\E', '(?P<n>a)'];
const FORMATS = ['int32', 'int64', 'float', 'double', 'date-time', 'date', 'uuid', 'email', 'byte', 'quantity', 'int-or-string', 'k8s-short-name', 'uri', 'hostname', 'ipv4', 'cidr', ''];
const VALUES: unknown[] = [0, 1, -1, 2.5, 'x', '', 'abc', true, false, null, [], ['a'], [1, 2], {}, { a: 1 }, { name: 'x' }, 1e20];
const RULES = [
  'self.a >',
  "'x' + ",
  'true',
  'self.size() > 0',
  'self == oldSelf',
  '   ',
  'has(self.x)',
  'self.a > 0\n&& true',
];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)]!;
}

type Mutation = (crd: Obj, r: () => number) => string | undefined;

const schemaMutation = (name: string, f: (s: Obj, r: () => number) => void): Mutation => (crd, r) => {
  const nodes = schemaNodes(crd);
  if (nodes.length === 0) return undefined;
  const n = pick(r, nodes);
  f(n, r);
  return name;
};

const MUTATIONS: Mutation[] = [
  schemaMutation('delete type', (s) => delete s['type']),
  schemaMutation('set type', (s, r) => (s['type'] = pick(r, TYPES))),
  schemaMutation('nullable', (s) => (s['nullable'] = true)),
  schemaMutation('default', (s, r) => (s['default'] = pick(r, VALUES))),
  schemaMutation('pattern', (s, r) => (s['pattern'] = pick(r, PATTERNS))),
  schemaMutation('format', (s, r) => (s['format'] = pick(r, FORMATS))),
  schemaMutation('enum', (s, r) => (s['enum'] = [pick(r, VALUES), pick(r, VALUES)])),
  schemaMutation('preserve-unknown', (s, r) => (s['x-kubernetes-preserve-unknown-fields'] = r() < 0.8)),
  schemaMutation('int-or-string', (s) => (s['x-kubernetes-int-or-string'] = true)),
  schemaMutation('embedded-resource', (s) => (s['x-kubernetes-embedded-resource'] = true)),
  schemaMutation('list-type', (s, r) => (s['x-kubernetes-list-type'] = pick(r, ['atomic', 'set', 'map', 'bogus']))),
  schemaMutation('list-map-keys', (s, r) => (s['x-kubernetes-list-map-keys'] = pick(r, [['name'], ['name', 'name'], ['type'], []]))),
  schemaMutation('map-type', (s, r) => (s['x-kubernetes-map-type'] = pick(r, ['atomic', 'granular', 'future']))),
  schemaMutation('additionalProperties', (s, r) => (s['additionalProperties'] = pick(r, [true, false, { type: 'string' }, {}]))),
  schemaMutation('uniqueItems', (s) => (s['uniqueItems'] = true)),
  schemaMutation('items', (s, r) => (s['items'] = pick(r, [{ type: 'string' }, {}, [{ type: 'string' }], { type: 'object', properties: { name: { type: 'string' } } }]))),
  schemaMutation('bounds', (s, r) => (s[pick(r, ['minLength', 'maxLength', 'minimum', 'maximum', 'maxItems', 'minItems', 'maxProperties', 'multipleOf'])] = pick(r, [0, 1, 3, 2.5]))),
  schemaMutation('junctor', (s, r) => (s[pick(r, ['allOf', 'anyOf', 'oneOf'])] = [pick(r, [{ type: 'string' }, { required: ['a'] }, { properties: { ghost: {} } }, { description: 'd' }, { type: 'integer' }]), { type: 'string' }])),
  schemaMutation('not', (s, r) => (s['not'] = pick(r, [{ required: ['a'] }, { type: 'string' }, { default: 1 }]))),
  schemaMutation('required', (s, r) => (s['required'] = pick(r, [['a'], [], ['name']]))),
  schemaMutation('unsupported', (s, r) => (s[pick(r, ['$ref', 'id', '$schema', 'definitions', 'patternProperties', 'dependencies', 'additionalItems'])] = pick(r, ['#/x', 'x', { a: { type: 'string' } }, true]))),
  schemaMutation('cel', (s, r) => (s['x-kubernetes-validations'] = [{ rule: pick(r, RULES), ...(r() < 0.3 ? { message: pick(r, ['m', ' ', 'a\nb']) } : {}), ...(r() < 0.2 ? { fieldPath: pick(r, ['.a', '.spec', "['x']", '.a[0]']) } : {}), ...(r() < 0.2 ? { reason: pick(r, ['FieldValueInvalid', 'Bogus']) } : {}) }])),
  schemaMutation('metadata property', (s, r) => {
    s['properties'] = { ...(isObj(s['properties']) ? s['properties'] : {}), metadata: pick(r, [{ type: 'object' }, { type: 'object', properties: { name: { type: 'string' } } }, { type: 'object', properties: { labels: { type: 'object' } } }, { type: 'string' }]) };
  }),
  (crd, r) => {
    const names = (crd['spec'] as Obj)['names'] as Obj;
    const k = pick(r, ['plural', 'singular', 'kind', 'listKind', 'shortNames', 'categories']);
    names[k] = k === 'shortNames' || k === 'categories' ? [pick(r, ['a', 'B', 'a-b', '1x', ''])] : pick(r, ['', 'Foo', 'foo_bar', 'foo-bar', 'x'.repeat(70), names['kind']]);
    return `names.${k}`;
  },
  (crd, r) => {
    (crd['spec'] as Obj)['scope'] = pick(r, ['Cluster', 'namespaced', '', 'Global']);
    return 'scope';
  },
  (crd, r) => {
    const v = pick(r, ((crd['spec'] as Obj)['versions'] as Obj[]) ?? [{}]);
    const k = pick(r, ['storage', 'served', 'name', 'deprecationWarning', 'schema']);
    if (k === 'name') v['name'] = pick(r, ['V1', 'v1.0', 'v2', '']);
    else if (k === 'deprecationWarning') v['deprecationWarning'] = pick(r, ['x', '', 'a\nb']);
    else if (k === 'schema') delete v['schema'];
    else v[k] = !v[k];
    return `version.${k}`;
  },
  (crd, r) => {
    const v = pick(r, ((crd['spec'] as Obj)['versions'] as Obj[]) ?? [{}]);
    v['subresources'] = {
      ...(r() < 0.7 ? { status: {} } : {}),
      ...(r() < 0.6
        ? {
            scale: {
              specReplicasPath: pick(r, ['.spec.replicas', '.status.replicas', 'spec.replicas', '', '.spec']),
              statusReplicasPath: pick(r, ['.status.replicas', '', '.spec.x', '.status']),
              ...(r() < 0.5 ? { labelSelectorPath: pick(r, ['.status.selector', '.spec.selector', '.selector', '']) } : {}),
            },
          }
        : {}),
    };
    return 'subresources';
  },
  (crd, r) => {
    const v = pick(r, ((crd['spec'] as Obj)['versions'] as Obj[]) ?? [{}]);
    v['additionalPrinterColumns'] = [{ name: pick(r, ['A', '']), type: pick(r, ['string', 'text', '', 'date']), jsonPath: pick(r, ['.spec.a', 'spec.a', '', '.spec[']), ...(r() < 0.3 ? { format: pick(r, ['int32', 'uuid']) } : {}) }];
    return 'printer columns';
  },
  (crd, r) => {
    const v = pick(r, ((crd['spec'] as Obj)['versions'] as Obj[]) ?? [{}]);
    v['selectableFields'] = [{ jsonPath: pick(r, ['.spec.a', '.metadata.name', '.spec', '', 'spec.x', '.spec[0]']) }];
    return 'selectable fields';
  },
  (crd, r) => {
    (crd['spec'] as Obj)['conversion'] = pick(r, [
      { strategy: 'Webhook' },
      { strategy: 'None', webhook: { conversionReviewVersions: ['v1'] } },
      { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: pick(r, ['https://x.example.com/c', 'http://x', '', 'https://u@x/c?q=1']) } } },
      { strategy: 'Webhook', webhook: { conversionReviewVersions: [pick(r, ['v1', 'v3', 'V1'])], clientConfig: { service: { name: 'n', namespace: 'ns', port: pick(r, [0, 443, 70000]), path: pick(r, ['/c', 'c', '//c', '/a/B']) } } } },
      { strategy: 'bogus' },
    ]);
    return 'conversion';
  },
];

/** Applies 1-3 random mutations to a deep copy of the CRD. */
export function mutate(crd: Obj, r: () => number): { crd: Obj; applied: string[] } {
  const copy = structuredClone(crd);
  const applied: string[] = [];
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    const m = pick(r, MUTATIONS);
    const name = m(copy, r);
    if (name) applied.push(name);
  }
  return { crd: copy, applied };
}
