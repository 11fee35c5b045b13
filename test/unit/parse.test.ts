import { describe, expect, it } from 'vitest';
import { parseFile } from '../../src/manifest/parse.js';
import { lintYaml } from '../helpers/lint.js';

const CRD = (name: string, scope: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${name}s.example.com}
spec:
  group: example.com
  scope: ${scope}
  names: {plural: ${name}s, kind: X${name}}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
`;

describe('parse', () => {
  it('expands kind: List items in place, keeping positions', () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n${[CRD('a', 'Namespaced'), CRD('b', 'Global')]
      .map((c) => c.split('\n').map((l, i) => (l === '' ? '' : (i === 0 ? '- ' : '  ') + l)).join('\n'))
      .join('\n')}`;
    const docs = parseFile({ path: 'l.yaml', text });
    expect(docs[0]!.manifests.map((m) => m.name)).toEqual(['as.example.com', 'bs.example.com']);
    const f = lintYaml(text).filter((x) => x.ruleId === 'scope');
    expect(f).toHaveLength(1);
    expect(f[0]!.path).toBe('items[1].spec.scope'); // the path inside the document
    expect(text.split('\n')[f[0]!.line - 1]).toContain('scope: Global');
  });

  it('reports a YAML error with its position and still checks the other documents', () => {
    const text = `${CRD('a', 'Global')}---\nkind: [unclosed\n---\n${CRD('b', 'Global')}`;
    const f = lintYaml(text);
    expect(f.filter((x) => x.ruleId === 'scope').map((x) => x.document)).toEqual([0, 2]);
    const parse = f.filter((x) => x.ruleId === 'parse');
    expect(parse.length).toBeGreaterThan(0);
    expect(parse.every((x) => x.document === 1 && x.fatal === true && x.line >= 9)).toBe(true);
  });

  it('reports duplicate keys (kubectl keeps the last value; the server rejects them in raw YAML under strict validation)', () => {
    const f = lintYaml(CRD('a', 'Namespaced').replace('scope: Namespaced', 'scope: Namespaced\n  scope: Cluster'));
    expect(f.some((x) => x.ruleId === 'parse' && x.messageId === 'yaml-duplicate-key' && x.line === 7)).toBe(true);
  });

  it('reports scalar and array documents, skips empty ones', () => {
    const f = lintYaml('just a string\n---\n- 1\n- 2\n---\n---\n# only a comment\n');
    expect(f.map((x) => [x.document, x.messageId])).toEqual([
      [0, 'not-an-object'],
      [1, 'not-an-object'],
    ]);
  });

  it('reads YAML 1.1 booleans as kubectl does (yes/no/on/off)', () => {
    const f = lintYaml(CRD('a', 'Namespaced').replace('served: true', 'served: yes').replace('storage: true', 'storage: on'));
    expect(f.filter((x) => x.severity === 'error')).toEqual([]);
  });

  it('stops alias bombs with a clear error', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');
    const t0 = Date.now();
    const f = lintYaml(bomb);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(f.some((x) => x.ruleId === 'parse' && x.fatal)).toBe(true);
  });
});

describe('integral floats beyond 2^53, as kubectl sends them', () => {
  const spec = (text: string): unknown => (parseFile({ path: 'f.yaml', text: `kind: X\nspec: ${text}\n` })[0]!.manifests[0]!.value as { spec: unknown }).spec;
  it('are the int64 of Go’s shortest JSON digits for them, where those fit', () => {
    // recorded from kubectl 1.32 create --dry-run=server -o json against a 1.37 server
    expect(spec('{a: 1e18, b: 4.611686018427387904e18, c: 9007199254740993.0, d: -9.2e18, e: 1e3}')).toEqual({
      a: 1000000000000000000n,
      b: 4611686018427388000n,
      c: 9007199254740992n,
      d: -9200000000000000000n,
      e: 1000,
    });
  });
  it('stay float64s beyond int64, -2^63 included (sent as -9223372036854776000)', () => {
    const v = spec('{a: -9223372036854775809, b: 1e21, c: 18446744073709551616, d: 9.2233720368547758e18}') as Record<string, number>;
    expect(v).toEqual({ a: -9223372036854775808, b: 1e21, c: 18446744073709551616, d: 9223372036854775808 });
    expect(Object.values(v).every((x) => typeof x === 'number')).toBe(true);
  });
});
