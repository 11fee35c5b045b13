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
