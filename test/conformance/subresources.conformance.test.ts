/**
 * Differential conformance of `status` and `scale` (src/cr/update.ts, src/cr/scale-rest.ts): a
 * custom resource is really created on a real apiextensions-apiserver, read back (the stored
 * object), then updated with dryRun=All through the main endpoint and `/status`, and its `/scale`
 * read and updated. The same operations are simulated from the stored object and compared field
 * by field:
 *  - the HTTP status (200 / 400 / 404 / 409 / 422 / 500) and, for failures, the message;
 *  - 422: the set of (reason, field, message) causes (CEL causes are compared when crdx evaluated every rule, else counted);
 *  - 200: the object (or the Scale) without resourceVersion and managedFields, and the warnings.
 * Scenarios: hand-written ones for runtime-semantics.md §5-§7 (generation, status split,
 * ratcheting after a CRD was tightened, resourceVersion, scale errors), and every corpus sample
 * whose CRD has a status or scale subresource.
 */
import { KUBECTL_FIELD_VALIDATION, parseValidateFlag, type FieldValidation } from '../../src/core/field-validation.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { toCause } from '../../src/core/field-error.js';
import { isRecord } from '../../src/core/types.js';
import { CrdCatalog, type ServedVersion } from '../../src/cr/catalog.js';
import { scaleGet, scaleUpdate } from '../../src/cr/scale-rest.js';
import { simulateUpdate, type UpdateResult, type Via } from '../../src/cr/update.js';
import { wireValue } from '../../src/cr/wire.js';
import { buildCrd, isCrdManifest, type Crd } from '../../src/crd/model.js';
import { parseFile } from '../../src/manifest/parse.js';
import { corpusFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { rng } from './mutate.js';
import { CRD_API, deleteAllCRDs, goAvailable, installCRD, startHarness, type Harness, type Response } from './harness.js';
import { celMessages, sortKeys } from './common.js';
import { cel } from '../helpers/cel.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HAVE_GO = goAvailable();
if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);
const KUBE = DEFAULT_KUBE_VERSION;
type Obj = Record<string, unknown>;




function norm(o: unknown): unknown {
  if (!isRecord(o)) return o;
  const md = isRecord(o['metadata']) ? { ...o['metadata'] } : {};
  delete md['resourceVersion'];
  delete md['managedFields'];
  return sortKeys(JSON.parse(JSON.stringify({ ...o, metadata: md }, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))));
}

const CEL_RUNTIME = /failed rule: |cost budget|call cost exceeds|no such key|evaluation error|some validation rules were not checked/;

function objectPath(sv: ServedVersion, o: Obj): string {
  const md = isRecord(o['metadata']) ? o['metadata'] : {};
  const ns = typeof md['namespace'] === 'string' && md['namespace'] !== '' ? md['namespace'] : 'default';
  return `/apis/${sv.group}/${sv.version.name}/${sv.namespaced ? `namespaces/${encodeURIComponent(ns)}/` : ''}${sv.crd.names.plural}/${encodeURIComponent(String(md['name']))}`;
}

type Op =
  | { readonly name: string; readonly kind: 'put'; readonly via: Via; readonly body: (stored: Obj) => Obj }
  | { readonly name: string; readonly kind: 'get-scale' }
  | { readonly name: string; readonly kind: 'put-scale'; readonly replicas: number; readonly rv?: (stored: Obj) => string | undefined };

interface Scenario {
  readonly name: string;
  readonly crd: Obj;
  /** Applied to the CRD after the object was created (ratcheting: the stored object no longer passes). */
  readonly tighten?: (crd: Obj) => Obj;
  /** After tighten: true once the server serves the new CRD (it picks it up asynchronously). */
  readonly probe?: (h: Harness, path: string, stored: Obj) => Promise<boolean>;
  readonly object: Obj;
  readonly ops: readonly Op[];
}

const tally = { compared: 0, agreed: 0, celGap: 0 };
/** CEL-caused causes of the server compared with crdx's (objects whose rules crdx evaluated fully). */
const celTally = { compared: 0, agreed: 0 };
/** Random edits per corpus sample (CRDX_SUBRESOURCE_MUTANTS). */
const MUTANTS_PER_SAMPLE = Number(process.env['CRDX_SUBRESOURCE_MUTANTS'] ?? 6);

function clone<T>(v: T): T {
  return structuredClone(v);
}
function edit(stored: Obj, f: (o: any) => void): Obj {
  const o = clone(stored) as any;
  f(o);
  return o;
}

function crdOf(kind: string, plural: string, schema: Obj, subresources?: Obj, scope = 'Namespaced'): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.sub.example.com` },
    spec: {
      group: 'sub.example.com',
      scope,
      names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...(subresources ? { subresources } : {}) }],
    },
  };
}

const SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
const PRESERVE = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
const CEL_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'p is immutable' }] },
        o: { type: 'object', properties: { x: { type: 'integer', nullable: true }, y: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'o is immutable' }] },
        s: { type: 'string', maxLength: 5 },
        f0: { type: 'integer' },
      },
      'x-kubernetes-validations': [
        { rule: 'oldSelf.hasValue() && has(oldSelf.value().f0) && has(self.f0) ? self.f0 >= oldSelf.value().f0 : true', optionalOldSelf: true, message: 'f0 only grows' },
        { rule: 'oldSelf.hasValue() ? has(self.f0) == has(oldSelf.value().f0) : true', optionalOldSelf: true, messageExpression: "oldSelf.hasValue() ? 'was set' : 'new'" },
      ],
    },
  },
};
const TYPED = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        num: { type: 'integer', maximum: 10 },
        name: { type: 'string', maxLength: 20 },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 100 } } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      },
    },
    status: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        selector: { type: 'string' },
        num: { type: 'integer', maximum: 10 },
        phase: { type: 'string', default: 'Pending' },
      },
    },
  },
};

function typedOps(): Op[] {
  return [
    { name: 'main: same object (no-op)', kind: 'put', via: 'main', body: (s) => s },
    { name: 'main: spec change', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.num = 3)) },
    { name: 'main: status change only', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.status = { replicas: 4, num: 1 })) },
    { name: 'main: label change only', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.metadata.labels = { a: 'b' })) },
    { name: 'main: client sets generation', kind: 'put', via: 'main', body: (s) => edit(s, (o) => ((o.metadata.generation = 42), (o.spec.num = 2))) },
    { name: 'main: invalid spec value', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.num = 11)) },
    { name: 'main: negative spec.replicas', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.replicas = -1)) },
    { name: 'main: unknown field', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.bogus = 1)) },
    { name: 'main: duplicate set item', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.tags = ['x', 'x'])) },
    { name: 'main: stale resourceVersion', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.metadata.resourceVersion = '1')) },
    { name: 'main: no resourceVersion', kind: 'put', via: 'main', body: (s) => edit(s, (o) => delete o.metadata.resourceVersion) },
    { name: 'main: another name', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.metadata.name = 'other')) },
    { name: 'main: wrong kind', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.kind = 'Other')) },
    { name: 'main: uid changed', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.metadata.uid = '00000000-0000-0000-0000-000000000000')) },
    { name: 'main: bad label', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.metadata.labels = { a: 'x y' })) },
    { name: 'main: new finalizer', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.metadata.finalizers = ['foo', 'example.com/ok'])) },
    { name: 'status: status change', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { replicas: 3, selector: 'app=x', num: 2 })) },
    { name: 'status: spec and labels ignored', kind: 'put', via: 'status', body: (s) => edit(s, (o) => ((o.spec.num = 9), (o.metadata.labels = { z: 'z' }), (o.status = { num: 1 }))) },
    { name: 'status: no status clears it', kind: 'put', via: 'status', body: (s) => edit(s, (o) => delete o.status) },
    { name: 'status: status null', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = null)) },
    { name: 'status: invalid status', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { num: 15 })) },
    { name: 'status: invalid spec not validated', kind: 'put', via: 'status', body: (s) => edit(s, (o) => ((o.spec.num = 15), (o.status = { num: 1 }))) },
    { name: 'status: negative status.replicas', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { replicas: -2 })) },
    { name: 'status: status.replicas too big', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { replicas: 2147483648 })) },
    { name: 'status: unknown status field', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { bogus: true, replicas: 1 })) },
    { name: 'status: stale resourceVersion', kind: 'put', via: 'status', body: (s) => edit(s, (o) => ((o.metadata.resourceVersion = '1'), (o.status = { replicas: 1 }))) },
    { name: 'status: no resourceVersion', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (delete o.metadata.resourceVersion, (o.status = { replicas: 1 }))) },
    { name: 'scale: get', kind: 'get-scale' },
    { name: 'scale: update to 5', kind: 'put-scale', replicas: 5 },
    { name: 'scale: update to the same value', kind: 'put-scale', replicas: 2 },
    { name: 'scale: update to 0', kind: 'put-scale', replicas: 0 },
    { name: 'scale: negative', kind: 'put-scale', replicas: -1 },
    { name: 'scale: with the current resourceVersion', kind: 'put-scale', replicas: 7, rv: (s) => (s['metadata'] as Obj)['resourceVersion'] as string },
    { name: 'scale: with a stale resourceVersion', kind: 'put-scale', replicas: 7, rv: () => '1' },
  ];
}

function scenarios(): Scenario[] {
  const typed = crdOf('Typed', 'typeds', TYPED, { status: {}, scale: SCALE });
  const typedNoStatus = crdOf('Plain', 'plains', TYPED, { scale: SCALE });
  const loose = crdOf('Loose', 'looses', PRESERVE, { status: {}, scale: SCALE });
  const cluster = crdOf('Cluster', 'clusters', TYPED, { status: {}, scale: SCALE }, 'Cluster');
  const widgets = parseFile({ path: 'w.yaml', text: readFileSync(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), 'utf8') })
    .flatMap((d) => d.manifests)
    .find(isCrdManifest)!.value;
  // a distinct name per scenario: a deleted CRD's objects may linger for a moment
  let n = 0;
  const obj = (kind: string, body: Obj, md: Obj = {}): Obj => ({ apiVersion: 'sub.example.com/v1', kind, metadata: { name: `foo-${++n}`, namespace: 'default', ...md }, ...body });
  const addScale = (c: Obj) => edit(c, (o) => (o.spec.versions[0].subresources = { status: {}, scale: SCALE }));
  const scaleServed = async (h: Harness, path: string) => (await h.request('GET', `${path}/scale`)).status !== 404;
  const looseNoScale = crdOf('Loose', 'looses', PRESERVE, { status: {} });
  const base = { spec: { replicas: 2, num: 5, name: 'x', ports: [{ name: 'http', port: 80 }], tags: ['a'] }, status: { replicas: 1 } };
  return [
    { name: 'typed, status and scale', crd: typed, object: obj('Typed', base, { labels: { app: 'x' } }), ops: typedOps() },
    { name: 'typed, scale without status', crd: typedNoStatus, object: obj('Plain', base), ops: typedOps() },
    { name: 'cluster-scoped', crd: cluster, object: obj('Cluster', base, { namespace: undefined }), ops: typedOps().filter((o) => !o.name.includes('resourceVersion')) },
    {
      name: 'ratcheting after the CRD was tightened',
      crd: typed,
      object: obj('Typed', { spec: { replicas: 2, num: 5, name: 'a-rather-long-name', ports: [{ name: 'http', port: 90 }, { name: 'b', port: 1 }], tags: ['a'] } }),
      tighten: (c) =>
        edit(c, (o) => {
          const spec = o.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
          spec.num.maximum = 3;
          spec.name.maxLength = 5;
          spec.ports.items.properties.port.maximum = 50;
        }),
      probe: async (h, path, stored) => (await h.request('PUT', `${path}?dryRun=All`, edit(stored, (o) => (o.spec.num = 4)))).status === 422,
      ops: [
        { name: 'unchanged invalid values pass', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.metadata.labels = { x: 'y' })) },
        { name: 'another field changes', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.replicas = 3)) },
        { name: 'an invalid value changes', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.num = 6)) },
        { name: 'name changed, still too long', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.name = 'another-long-name')) },
        { name: 'map-list item reordered', kind: 'put', via: 'main', body: (s) => edit(s, (o) => o.spec.ports.reverse()) },
        { name: 'map-list item changed', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.ports[0].port = 95)) },
        { name: 'map-list item added', kind: 'put', via: 'main', body: (s) => edit(s, (o) => o.spec.ports.push({ name: 'c', port: 99 })) },
        { name: 'status write leaves spec alone', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { replicas: 1 })) },
        { name: 'scale update', kind: 'put-scale', replicas: 4 },
      ],
    },
    {
      // validation.go: a failed rule (without oldSelf) on a value the update leaves unchanged is a 299 warning
      name: 'CEL ratcheting after a rule was added',
      crd: typed,
      object: obj('Typed', { spec: { replicas: 2, num: 5, ports: [{ name: 'http', port: 90 }, { name: 'b', port: 1 }, { name: 'c', port: 70 }] } }),
      tighten: (c) =>
        edit(c, (o) => {
          o.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.ports.items['x-kubernetes-validations'] = [{ rule: 'self.port < 50', message: 'low port' }];
        }),
      probe: async (h, path, stored) => (await h.request('PUT', `${path}?dryRun=All`, edit(stored, (o) => (o.spec.ports[1].port = 60)))).status === 422,
      ops: [
        { name: 'unchanged failing items warn', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.metadata.labels = { x: 'y' })) },
        { name: 'another field changes', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.replicas = 3)) },
        { name: 'a failing item changes', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.ports[0].port = 95)) },
        { name: 'a passing item starts failing', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.ports[1].port = 80)) },
        { name: 'items reordered', kind: 'put', via: 'main', body: (s) => edit(s, (o) => o.spec.ports.reverse()) },
        { name: 'status write', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { replicas: 1 })) },
        { name: 'scale update', kind: 'put-scale', replicas: 4 },
      ],
    },
    {
      // unstructuredMap.Equal (sizes, then the receiver's keys: an undeclared key only when both hold
      // it, a null field absent), one warning per text (warning.go), optionalOldSelf's value() read
      name: 'CEL equality of objects, equal ratcheting warnings, optional oldSelf',
      crd: crdOf('Cel', 'cels', CEL_SCHEMA, { status: {} }),
      object: obj('Cel', { spec: { p: { a: 1, u: 1 }, o: { y: 1 }, s: 'xyz', f0: 5 } }),
      tighten: (c) =>
        edit(c, (o) => {
          o.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.s['x-kubernetes-validations'] = [
            { rule: 'self.size() <= 2', message: 'bad s' },
            { rule: "self.startsWith('a')", message: 'bad s' },
          ];
        }),
      probe: async (h, path, stored) => (await h.request('PUT', `${path}?dryRun=All`, edit(stored, (o) => (o.spec.s = 'xyw')))).status === 422,
      ops: [
        { name: 'unchanged failing value: one warning for two equal texts', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.metadata.labels = { x: 'y' })) },
        { name: 'changed failing value: both causes', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.s = 'xyw')) },
        { name: 'undeclared key renamed: equal', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.p = { a: 1, w: 2 })) },
        { name: 'undeclared value changed', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.p = { a: 1, u: 2 })) },
        { name: 'undeclared key added', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.p = { a: 1, u: 1, w: 2 })) },
        { name: 'null field for another: equal', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.o = { x: null })) },
        { name: 'null field added', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.o = { y: 1, x: null })) },
        { name: 'optional oldSelf: f0 decreases', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.f0 = 4)) },
        { name: 'optional oldSelf: f0 grows', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.f0 = 6)) },
        { name: 'optional oldSelf: f0 removed', kind: 'put', via: 'main', body: (s) => edit(s, (o) => delete o.spec.f0) },
      ],
    },
    {
      name: 'loose schema: scale path errors',
      crd: looseNoScale,
      tighten: addScale,
      probe: scaleServed,
      object: obj('Loose', { spec: { replicas: 'three', other: 1 }, status: { replicas: 2 } }),
      ops: [
        { name: 'scale: get with a string replicas', kind: 'get-scale' },
        { name: 'scale: update with a string replicas', kind: 'put-scale', replicas: 3 },
        { name: 'main: string replicas', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.other = 2)) },
        { name: 'main: replicas removed', kind: 'put', via: 'main', body: (s) => edit(s, (o) => delete o.spec.replicas) },
        { name: 'main: spec a string', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec = 'x')) },
        { name: 'main: float replicas', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.replicas = 1.5)) },
        { name: 'status: selector an object', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { selector: { matchLabels: { a: 'b' } } })) },
        { name: 'status: replicas a string', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { replicas: 'x' })) },
      ],
    },
    {
      name: 'loose schema: no spec.replicas',
      crd: loose,
      object: obj('Loose', { spec: { other: 1 } }),
      ops: [
        { name: 'scale: get without replicas', kind: 'get-scale' },
        { name: 'scale: update creates replicas', kind: 'put-scale', replicas: 3 },
      ],
    },
    {
      name: 'loose schema: spec is a string',
      crd: looseNoScale,
      tighten: addScale,
      probe: scaleServed,
      object: obj('Loose', { spec: 'x' }),
      ops: [
        { name: 'scale: get', kind: 'get-scale' },
        { name: 'scale: update', kind: 'put-scale', replicas: 3 },
      ],
    },
    {
      name: 'fixtures/crds/01-widgets (CEL, defaults, map-lists)',
      crd: widgets,
      object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { replicas: 2, ports: [{ name: 'web', port: 80 }] } },
      ops: [
        { name: 'main: replicas up', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.replicas = 3)) },
        { name: 'main: bad enum', kind: 'put', via: 'main', body: (s) => edit(s, (o) => (o.spec.size = 'huge')) },
        { name: 'status: conditions', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { replicas: 2, selector: 'app=w', conditions: [{ type: 'Ready', status: 'True' }] })) },
        { name: 'status: bad condition', kind: 'put', via: 'status', body: (s) => edit(s, (o) => (o.status = { conditions: [{ type: 'Ready', status: 'Maybe' }, { type: 'Ready', status: 'True' }] })) },
        { name: 'scale: get', kind: 'get-scale' },
        { name: 'scale: update', kind: 'put-scale', replicas: 6 },
      ],
    },
  ];
}

interface Ours {
  readonly status: number;
  readonly message?: string;
  readonly causes?: string[];
  readonly value?: unknown;
  readonly warnings: string[];
  /** crdx evaluated every CEL rule of the object: CEL causes are compared too. */
  readonly celEvaluated?: boolean;
}

function oursOfUpdate(u: UpdateResult): Ours {
  const warnings = u.warnings.map((w) => w.text);
  if (u.failure) return { status: u.failure.code, message: u.failure.message, warnings };
  if (u.errors.length > 0) return { status: 422, causes: [...new Set(u.errors.map((e) => toCause(e)).map((c) => `${c.reason} ${c.field}: ${c.message}`))], warnings, celEvaluated: !u.celNotEvaluated };
  return { status: 200, value: norm(u.value), warnings };
}

async function compare(label: string, ours: Ours, res: Response, crd: Crd, compareValue: (theirs: unknown) => unknown = norm): Promise<void> {
  const both = `\n--- server: HTTP ${res.status} ${JSON.stringify(res.body?.details?.causes ?? res.body?.message ?? res.body)}\n--- ours: ${JSON.stringify(ours)}`;
  let agreed = res.status === ours.status;
  let gap = false;
  if (res.status === 422 && res.body?.details?.causes) {
    const cel = celMessages(crd);
    const causes = res.body.details.causes as { reason: string; field: string; message: string }[];
    const isCel = (x: { message: string }) => CEL_RUNTIME.test(x.message) || cel.some((m) => x.message.endsWith(m));
    const isGap = (x: { message: string }) => ours.celEvaluated !== true && isCel(x);
    gap = causes.some(isGap);
    const theirs = [...new Set(causes.filter((x) => !isGap(x)).map((x) => `${x.reason} ${x.field}: ${x.message}`))].sort();
    const mine = (ours.causes ?? []).filter((c) => ours.celEvaluated === true || !isCel({ message: c })).sort();
    if (ours.celEvaluated === true) {
      const celCauses = causes.filter(isCel).map((x) => `${x.reason} ${x.field}: ${x.message}`);
      celTally.compared += celCauses.length;
      celTally.agreed += celCauses.filter((x) => mine.includes(x)).length;
    }
    if (ours.causes) {
      agreed &&= JSON.stringify(theirs) === JSON.stringify(mine);
      tally.compared++;
      if (agreed) tally.agreed++;
      if (gap) tally.celGap++;
      expect(mine, label + both).toEqual(theirs);
      return;
    }
    // a 422 without field causes on our side (resourceVersion): compare the message
  }
  tally.compared++;
  if (res.status >= 300) {
    // the storage key's prefix is the server's --etcd-prefix (/registry on kube-apiserver)
    const key = (t: string | undefined) => t?.replace(/Key: (?:\/registry)?\//, 'Key: /');
    agreed &&= key(ours.message) === key(String(res.body?.message ?? ''));
    if (agreed) tally.agreed++;
    expect(ours.status, label + both).toBe(res.status);
    expect(key(ours.message), label + both).toBe(key(String(res.body?.message ?? '')));
    return;
  }
  const theirs = compareValue(res.body);
  agreed &&= JSON.stringify(theirs) === JSON.stringify(ours.value) && JSON.stringify(ours.warnings) === JSON.stringify(res.warnings);
  if (agreed) tally.agreed++;
  expect(ours.status, label + both).toBe(res.status);
  expect(ours.value, label + both).toEqual(theirs);
  expect(ours.warnings, label + both).toEqual(res.warnings);
}

function ratcheted(u: { readonly warnings: readonly { readonly kind: string; readonly text: string }[] }): string[] {
  return u.warnings.filter((w) => w.kind === 'ratcheted').map((w) => w.text);
}

/** The Scale without its resourceVersion (a write gives a new one, which we cannot know). */
function normScale(s: unknown): unknown {
  if (!isRecord(s)) return s;
  const md = isRecord(s['metadata']) ? { ...s['metadata'] } : {};
  delete md['resourceVersion'];
  return sortKeys({ ...s, metadata: md });
}

async function runOp(h: Harness, op: Op, stored: Obj, sv: ServedVersion, crd: Crd, fieldValidation: FieldValidation = 'Warn'): Promise<void> {
  const path = objectPath(sv, stored);
  if (op.kind === 'put') {
    const body = op.body(stored);
    const res = await h.request('PUT', `${path}${op.via === 'status' ? '/status' : ''}?dryRun=All&fieldValidation=${fieldValidation}`, body);
    const ours = oursOfUpdate(simulateUpdate(stored, body, sv, { kube: KUBE, via: op.via, fieldValidation }));
    await compare(op.name, ours, res, crd);
    return;
  }
  if (op.kind === 'get-scale') {
    const res = await h.request('GET', `${path}/scale`);
    const r = scaleGet(stored, sv);
    const ours: Ours = r.failure ? { status: r.failure.code, message: r.failure.message, warnings: [] } : { status: 200, value: sortKeys(r.scale), warnings: [] };
    await compare(op.name, ours, res, crd, sortKeys);
    return;
  }
  const md = stored['metadata'] as Obj;
  const rv = op.rv?.(stored);
  const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: md['name'], ...(md['namespace'] ? { namespace: md['namespace'] } : {}), ...(rv ? { resourceVersion: rv } : {}) }, spec: { replicas: op.replicas } };
  const res = await h.request('PUT', `${path}/scale?dryRun=All`, scale);
  const r = scaleUpdate(stored, sv, op.replicas, { kube: KUBE, ...(rv ? { resourceVersion: rv } : {}) });
  let ours: Ours;
  if (r.failure) ours = { status: r.failure.code, message: r.failure.message, warnings: [] };
  // the update behind the Scale sends the ratcheted rules' warnings (validation.go)
  else if (r.update && r.update.errors.length > 0) ours = { ...oursOfUpdate(r.update), warnings: ratcheted(r.update) };
  else ours = { status: 200, value: normScale(r.scale), warnings: r.update ? ratcheted(r.update) : [] };
  await compare(op.name, ours, res, crd, normScale);
}


function servedFor(raw: Obj, apiVersion: string, kind: string): { sv: ServedVersion; crd: Crd } {
  const m = parseFile({ path: 'crd.json', text: JSON.stringify(raw) })[0]!.manifests[0]!;
  const crd = buildCrd(m, KUBE, cel);
  const l = new CrdCatalog([crd]).lookup(apiVersion, kind);
  if (!l.ok) throw new Error(l.message);
  return { sv: l.served, crd };
}

/** Every path to a value of the object below spec/status (and labels), with the value. */
function leaves(o: unknown, path: (string | number)[] = [], out: { path: (string | number)[]; value: unknown }[] = []): { path: (string | number)[]; value: unknown }[] {
  if (path.length > 0) out.push({ path, value: o });
  if (Array.isArray(o)) o.forEach((x, i) => leaves(x, [...path, i], out));
  else if (isRecord(o)) for (const k of Object.keys(o)) leaves(o[k], [...path, k], out);
  return out;
}

/** A seeded, structure-aware edit of a stored object: another value type, a removal, a null, an unknown field, a copy. */
function mutateObject(stored: Obj, r: () => number): { body: Obj; what: string } {
  const body = structuredClone(stored);
  const targets = leaves({ spec: body['spec'], status: body['status'] }).filter((l) => l.path.length > 1);
  const MUT = ['type', 'remove', 'null', 'unknown', 'number', 'string', 'negative'] as const;
  const kind = MUT[Math.floor(r() * MUT.length)]!;
  if (targets.length === 0) {
    body['spec'] = { injected: 1 };
    return { body, what: 'spec replaced' };
  }
  const t = targets[Math.floor(r() * targets.length)]!;
  let parent: any = body;
  for (const k of t.path.slice(0, -1)) parent = parent[k];
  const last = t.path[t.path.length - 1]!;
  switch (kind) {
    case 'type':
      parent[last] = typeof t.value === 'string' ? 42 : typeof t.value === 'number' ? 'x' : Array.isArray(t.value) ? { a: 1 } : isRecord(t.value) ? ['a'] : 'text';
      break;
    case 'remove':
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      break;
    case 'null':
      parent[last] = null;
      break;
    case 'unknown':
      if (isRecord(t.value)) (t.value as Obj)['crdxUnknown'] = 'x';
      else parent[last] = { crdxUnknown: true };
      break;
    case 'number':
      parent[last] = Math.floor(r() * 3_000_000_000) - 1_000_000_000;
      break;
    case 'string':
      parent[last] = 'a'.repeat(1 + Math.floor(r() * 300));
      break;
    case 'negative':
      parent[last] = -1;
      break;
  }
  return { body, what: `${kind} ${t.path.join('.')}` };
}

describe.skipIf(!HAVE_GO)('status and scale agree with a real apiextensions-apiserver', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 1_800_000);
  afterAll(async () => {
    console.log(`CEL causes compared (status/scale): ${celTally.agreed}/${celTally.compared} agree`);
    console.log(`conformance tally (status/scale): ${tally.agreed}/${tally.compared} agree${tally.celGap ? ` (${tally.celGap} with CEL-only causes, not compared)` : ''}`);
    await h?.stop();
  });

  for (const sc of scenarios()) {
    describe(sc.name, () => {
      let stored: Obj | undefined;
      let sv: ServedVersion;
      let crd: Crd;
      let problem: string | undefined;
      beforeAll(async () => {
        await deleteAllCRDs(h);
        problem = await installCRD(h, sc.crd).then((p) => p && `CRD ${p}`);
        if (problem) return;
        const obj = JSON.parse(JSON.stringify(sc.object)) as Obj;
        ({ sv, crd } = servedFor(sc.crd, String(obj['apiVersion']), String(obj['kind'])));
        const collection = objectPath(sv, obj).replace(/\/[^/]+$/, '');
        const created = await h.request('POST', collection, obj);
        if (created.status !== 201) {
          problem = `object not created: HTTP ${created.status} ${JSON.stringify(created.body?.message)}`;
          return;
        }
        if (sc.tighten) {
          const cur = await h.request('GET', `${CRD_API}/${(sc.crd['metadata'] as Obj)['name']}`);
          const next = sc.tighten(cur.body as Obj);
          const up = await h.request('PUT', `${CRD_API}/${(sc.crd['metadata'] as Obj)['name']}`, next);
          if (up.status !== 200) {
            problem = `CRD not updated: HTTP ${up.status}`;
            return;
          }
          ({ sv, crd } = servedFor(next, String(obj['apiVersion']), String(obj['kind'])));
          // the handler picks the new CRD up asynchronously
          const deadline = Date.now() + 30_000;
          for (;;) {
            // while the handler switches to the new CRD a request can find the connection closed
            // (socket hang up, seen once on /scale): that is "not yet", not an answer to compare
            const ready = await (async () => {
              const g = await h.request('GET', objectPath(sv, obj));
              return sc.probe !== undefined && (await sc.probe(h, objectPath(sv, obj), g.body as Obj));
            })().catch(() => false);
            if (ready || Date.now() > deadline) break;
            await new Promise((r) => setTimeout(r, 200));
          }
        }
        stored = (await h.request('GET', objectPath(sv, obj))).body as Obj;
      }, 300_000);
      afterAll(async () => {
        await deleteAllCRDs(h);
      }, 120_000);
      for (const op of sc.ops) {
        it(op.name, async (ctx) => {
          if (problem || !stored) {
            console.warn(`${sc.name}: ${problem}`);
            ctx.skip();
          }
          await runOp(h, op, stored!, sv, crd);
        });
      }
    });
  }

  // the golden cases of fixtures/status and fixtures/scale: the stored object is created for real
  // (its status written through /status), the request gets the stored resourceVersion when it
  // carried the old object's, and the operation is replayed
  const doc = (p: string): Obj => wireValue(parseFile({ path: p, text: readFileSync(p, 'utf8') })[0]!.manifests[0]!);
  const SERVER_SET = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields'];
  for (const group of ['status', 'scale'] as const) {
    const dir = join(ROOT, 'fixtures', group);
    for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
      const d = join(dir, name);
      const oldFile = join(d, group === 'status' ? 'old.yaml' : 'input.yaml');
      if (!existsSync(oldFile)) continue;
      const args = readFileSync(join(d, 'args'), 'utf8').trim().split(/\s+/);
      const crdRaw = parseFile({ path: 'crd.yaml', text: readFileSync(join(d, 'crd.yaml'), 'utf8') })[0]!.manifests[0]!.value;
      // a namespace of its own: the objects of a deleted CRD can linger in storage for a while
      const ns = `${group}-${name}`.slice(0, 63);
      const inNs = (o: Obj): Obj => edit(o, (x) => (x.metadata.namespace = ns));
      const old = inNs(doc(oldFile));
      describe(`fixtures/${group}/${name}`, () => {
        let stored: Obj | undefined;
        let sv: ServedVersion;
        let crd: Crd;
        let problem: string | undefined;
        beforeAll(async () => {
          await deleteAllCRDs(h);
          problem = await installCRD(h, crdRaw).then((p) => p && `CRD ${p}`);
          if (problem) return;
          ({ sv, crd } = servedFor(crdRaw, String(old['apiVersion']), String(old['kind'])));
          const body = edit(old, (o) => {
            for (const k of SERVER_SET) delete o.metadata[k];
          });
          const created = await h.request('POST', objectPath(sv, body).replace(/\/[^/]+$/, ''), body);
          if (created.status !== 201) {
            problem = `the stored object cannot be created: HTTP ${created.status} ${JSON.stringify(created.body?.message)}`;
            return;
          }
          let cur = created.body as Obj;
          if (sv.statusEnabled && old['status'] !== undefined) cur = (await h.request('PUT', `${objectPath(sv, cur)}/status`, { ...cur, status: old['status'] })).body as Obj;
          stored = cur;
        }, 300_000);
        afterAll(async () => {
          await deleteAllCRDs(h);
        }, 120_000);
        it(args.join(' ') || 'get', async (ctx) => {
          if (problem || !stored) {
            console.warn(`fixtures/${group}/${name}: ${problem}`);
            ctx.skip();
          }
          const storedRv = (stored!['metadata'] as Obj)['resourceVersion'] as string;
          const oldRv = (old['metadata'] as Obj)['resourceVersion'];
          const rvFor = (rv: unknown) => (rv === oldRv ? storedRv : rv);
          const flag = (f: string) => (args.includes(f) ? args[args.indexOf(f) + 1] : undefined);
          if (group === 'status') {
            const neu = edit(inNs(doc(join(d, 'new.yaml'))), (o) => {
              if (o.metadata.resourceVersion !== undefined) o.metadata.resourceVersion = rvFor(o.metadata.resourceVersion);
            });
            // the field validation the CLI sends for these args (kubectl's strict unless --validate=…)
            const validate = args.find((a) => a.startsWith('--validate='));
            const mode = validate ? parseValidateFlag(validate.slice('--validate='.length))! : KUBECTL_FIELD_VALIDATION;
            await runOp(h, { name, kind: 'put', via: (flag('--via') ?? 'status') as Via, body: () => neu }, stored!, sv, crd, mode);
          } else if (flag('--replicas') === undefined) {
            await runOp(h, { name, kind: 'get-scale' }, stored!, sv, crd);
          } else {
            const rv = flag('--resource-version');
            await runOp(h, { name, kind: 'put-scale', replicas: Number(flag('--replicas')), ...(rv ? { rv: () => String(rvFor(rv)) } : {}) }, stored!, sv, crd);
          }
        });
      });
    }
  }

  // every corpus sample whose CRD has a status or scale subresource
  if (HAVE_CORPUS) {
    const crds = corpusFiles('crds').flatMap((f) => parseFile(f).flatMap((d) => d.manifests)).filter(isCrdManifest);
    const catalog = new CrdCatalog(crds.map((m) => buildCrd(m, KUBE, cel)));
    const samples = corpusFiles('samples').flatMap((f) => parseFile({ path: f.path, text: f.text }).flatMap((d) => d.manifests)).filter((m) => !isCrdManifest(m));
    for (const m of samples) {
      const l = catalog.lookup(m.apiVersion ?? '', m.kind ?? '');
      if (!l.ok || (!l.served.statusEnabled && !l.served.scale)) continue;
      const sv = l.served;
      const input = wireValue(m);
      describe(`corpus: ${m.file.path.split('/').slice(-2).join('/')} ${m.kind}/${m.name}`, () => {
        let stored: Obj | undefined;
        beforeAll(async () => {
          await deleteAllCRDs(h);
          if (await installCRD(h, sv.crd.manifest.value)) return;
          const created = await h.request('POST', objectPath(sv, input).replace(/\/[^/]+$/, ''), input);
          if (created.status === 201) stored = (await h.request('GET', objectPath(sv, created.body as Obj))).body as Obj;
        }, 300_000);
        afterAll(async () => {
          await deleteAllCRDs(h);
        }, 120_000);
        const ops: Op[] = [{ name: 'main: same object', kind: 'put', via: 'main', body: (s) => s }];
        if (sv.statusEnabled) {
          ops.push({ name: 'main: status from the sample', kind: 'put', via: 'main', body: (s) => ({ ...s, status: input['status'] ?? { x: 1 } }) });
          if (input['status'] !== undefined) ops.push({ name: 'status: status from the sample', kind: 'put', via: 'status', body: (s) => ({ ...s, status: input['status'] }) });
          ops.push({ name: 'status: clear', kind: 'put', via: 'status', body: (s) => edit(s, (o) => delete o.status) });
        }
        if (sv.scale) ops.push({ name: 'scale: get', kind: 'get-scale' }, { name: 'scale: update to 3', kind: 'put-scale', replicas: 3 });
        // seeded mutants of the stored object, through both endpoints
        const r = rng(Number(process.env['CRDX_MUTANT_SEED'] ?? 1) * 7919 + m.docIndex * 131 + m.file.path.split('/corpus/').pop()!.length);
        for (let i = 0; i < MUTANTS_PER_SAMPLE; i++) {
          const via: Via = sv.statusEnabled && i % 2 === 1 ? 'status' : 'main';
          const seed = r();
          ops.push({ name: `mutant #${i} (${via})`, kind: 'put', via, body: (s) => mutateObject(s, rng(Math.floor(seed * 2 ** 31))).body });
        }
        for (const op of ops) {
          it(op.name, async (ctx) => {
            if (!stored) ctx.skip();
            await runOp(h, op, stored!, sv, sv.crd);
          });
        }
      });
    }
  }
});
