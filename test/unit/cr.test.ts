/**
 * Unit tests of src/cr: the Go formatting of accessor errors, the scale-path checks (vectors
 * V79-V85), PruneDefaults (V72), the kube-aware version order, root metadata, and the read-back
 * shortcut (it must never change a result).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorText } from '../../src/core/field-error.js';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { CrdCatalog, compareKubeAwareVersions } from '../../src/cr/catalog.js';
import { simulateCreate } from '../../src/cr/create.js';
import { formatFloat } from '../../src/go/float.js';
import { pruneDefaults } from '../../src/schema/behaviours/prune-defaults.js';
import { buildStructural } from '../../src/crd/structural-schema.js';
import { finalizerWarnings, generatedName } from '../../src/cr/root-meta.js';
import { validateScaleSpec, validateScaleStatus } from '../../src/cr/scale.js';
import { wireValue } from '../../src/cr/wire.js';
import { buildCrd, isCrdManifest } from '../../src/crd/model.js';
import { parseFile } from '../../src/manifest/parse.js';
import { corpusFiles } from '../helpers/corpus.js';
import { cel } from '../helpers/cel.js';
import { goTypeOf, goValue } from '../../src/go/print.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('Go %v and %T', () => {
  it.each([
    [3, '3', 'int64'],
    [3.5, '3.5', 'float64'],
    [1e21, '1e+21', 'float64'],
    ['foo', 'foo', 'string'],
    [true, 'true', 'bool'],
    [null, '<nil>', '<nil>'],
    [{ matchLabels: { b: 1, a: 'x' } }, 'map[matchLabels:map[a:x b:1]]', 'map[string]interface {}'],
    [['a', 1.5, null], '[a 1.5 <nil>]', '[]interface {}'],
  ])('%j', (v, value, type) => {
    expect(goValue(v)).toBe(value);
    expect(goTypeOf(v)).toBe(type);
  });
  it('switches to exponents like strconv %g (shortest): below 1e-4 and from 1e6 (the integer range aside)', () => {
    expect([0.0001, 0.00001, 123456.5, 1234567.5].map((x) => formatFloat(x, 'g'))).toEqual(['0.0001', '1e-05', '123456.5', '1.2345675e+06']);
  });
});

describe('scale paths (runtime-semantics §7, V79-V85)', () => {
  const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
  const texts = (o: unknown) => [...validateScaleSpec(o, scale), ...validateScaleStatus(o, scale)].map(errorText);
  it.each([
    ['V79', { spec: { replicas: -1 } }, ['.spec.replicas: Invalid value: -1: should be a non-negative integer']],
    ['V80', { spec: { replicas: 2147483648 } }, ['.spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647']],
    ['V81', { spec: { replicas: '3' } }, ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 3 is of the type string, expected int64']],
    ['V82 (3.5: 3.0 reaches the server as 3)', { spec: { replicas: 3.5 } }, ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 3.5 is of the type float64, expected int64']],
    ['V83', { spec: {}, status: { replicas: -2 } }, ['.status.replicas: Invalid value: -2: should be a non-negative integer']],
    [
      'V84',
      { status: { selector: { matchLabels: { a: 'b' } } } },
      ['.status.selector: Invalid value: "": .status.selector accessor error: map[matchLabels:map[a:b]] is of the type map[string]interface {}, expected string'],
    ],
    ['V85', {}, []],
    ['intermediate non-object', { spec: 'x' }, ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected map[string]interface{}']],
    ['intermediate null counts as missing', { spec: null }, []],
  ])('%s', (_id, obj, want) => expect(texts(obj)).toEqual(want));
});

describe('PruneDefaults', () => {
  it('V72: unknown fields of a metadata default inside an embedded resource are dropped', () => {
    const schema = {
      type: 'object',
      properties: {
        embedded: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { apiVersion: { type: 'string', default: 'foos/v1' }, kind: { type: 'string', default: 'Foo' }, metadata: { type: 'object', default: { name: 'Bar', unknown: 'unknown' } } },
        },
        whole: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'foos/v1', kind: 'Foo', metadata: { name: 'Bar', unknown: 'unknown' } } },
      },
    };
    const pruned = pruneDefaults(buildStructural(schema)).raw as { properties: Record<string, { default?: unknown; properties?: Record<string, { default?: unknown }> }> };
    expect(pruned.properties['embedded']!.properties!['metadata']!.default).toEqual({ name: 'Bar' });
    expect(pruned.properties['whole']!.default).toEqual({ apiVersion: 'foos/v1', kind: 'Foo', metadata: { name: 'Bar' } });
    expect((schema.properties.embedded.properties.metadata as { default: unknown }).default).toEqual({ name: 'Bar', unknown: 'unknown' });
  });
  it('returns the schema itself when no default changes', () => {
    const s = { type: 'object', properties: { a: { type: 'string', default: 'x' } } };
    const st = buildStructural(s);
    expect(pruneDefaults(st)).toBe(st);
  });
});

describe('server details', () => {
  it('orders versions the kube-aware way', () => {
    const vs = ['v1alpha1', 'foo', 'v2', 'v1beta2', 'v1', 'v1beta1', 'v10', 'bar'];
    expect([...vs].sort((a, b) => compareKubeAwareVersions(b, a))).toEqual(['v10', 'v2', 'v1', 'v1beta2', 'v1beta1', 'v1alpha1', 'bar', 'foo']);
  });
  it('generates names from at most 58 characters of generateName', () => {
    expect(generatedName('x'.repeat(70))).toHaveLength(63);
  });
  it('warns about finalizer names from 1.29 on, with the path variant from 1.32', () => {
    expect(finalizerWarnings(['a.b', 'kubernetes', 'x/y'], 36)).toEqual([
      'metadata.finalizers: "a.b": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers',
    ]);
    expect(finalizerWarnings(['a.b'], 30)[0]).toContain('prefer a domain-qualified finalizer name to avoid');
    expect(finalizerWarnings(['a.b'], 28)).toEqual([]);
  });
  it('keeps timestamp-like scalars as written (go-yaml v2 does)', () => {
    const [d] = parseFile({ path: 'x.yaml', text: 'apiVersion: a.b/v1\nkind: K\nspec:\n  day: 2024-01-02\n  at: 2024-01-02T03:04:05Z\n' });
    expect(wireValue(d!.manifests[0]!)['spec']).toEqual({ day: '2024-01-02', at: '2024-01-02T03:04:05Z' });
  });
});

describe('the read-back shortcut never changes a result', () => {
  const texts: { path: string; text: string }[] = [];
  const sim = join(ROOT, 'fixtures', 'simulate');
  for (const d of readdirSync(sim).sort())
    texts.push({ path: `${d}`, text: `${readFileSync(join(sim, d, 'crd.yaml'), 'utf8')}\n---\n${readFileSync(join(sim, d, 'input.yaml'), 'utf8')}` });
  for (const id of ['custom-resource', 'custom-resource-warnings'])
    for (const k of ['valid', 'invalid'])
      for (const f of readdirSync(join(ROOT, 'fixtures', 'rules', id, k)).sort()) texts.push({ path: `${id}/${k}/${f}`, text: readFileSync(join(ROOT, 'fixtures', 'rules', id, k, f), 'utf8') });
  it('on the fixtures and the corpus samples', () => {
    const manifests = [...texts, ...corpusFiles('samples'), ...corpusFiles('crds')].flatMap((f) => parseFile(f).flatMap((d) => d.manifests));
    const catalog = new CrdCatalog(manifests.filter(isCrdManifest).map((m) => buildCrd(m, DEFAULT_KUBE_VERSION, cel)));
    let shortcut = 0;
    for (const m of manifests) {
      if (isCrdManifest(m)) continue;
      const l = catalog.lookup(m.apiVersion ?? '', m.kind ?? '');
      if (!l.ok) continue;
      const auto = simulateCreate(wireValue(m), l.served, { kube: DEFAULT_KUBE_VERSION });
      const full = simulateCreate(wireValue(m), l.served, { kube: DEFAULT_KUBE_VERSION, alwaysReadBack: true });
      expect(auto.value, `${m.file.path} ${m.kind}/${m.name}`).toEqual(full.value);
      if (l.served.readBackIsIdentity) {
        shortcut++;
        expect(full.changes.filter((c) => c.stage === 'storage')).toEqual([]);
      }
    }
    expect(shortcut).toBeGreaterThan(10);
  }, 120_000);
});
