import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/types.js';
import { applyBaseline, baselineFile, buildBaseline, parseBaseline, serializeBaseline } from '../../src/engine/baseline.js';

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'widgets.example.com' };

function finding(ruleId: string, line: number, extra: Partial<Finding> = {}): Finding {
  return { ruleId, severity: 'error', message: `${ruleId} message`, messageId: 'm', file: '/repo/crds/a.yaml', line, column: 1, document: 0, object: CRD, path: 'spec.scope', ...extra };
}

describe('buildBaseline and serializeBaseline', () => {
  it('sorts entries by file, rule, object, path and message, counts identical ones, and drops positions', () => {
    const b = buildBaseline(
      [finding('scope', 9), finding('api-approval', 3, { file: '/repo/crds/b.yaml' }), finding('scope', 30), finding('crd-name', 1, { path: 'metadata.name' })],
      '/repo',
    );
    expect(b).toEqual({
      version: 1,
      findings: [
        { ruleId: 'crd-name', file: 'crds/a.yaml', object: CRD, path: 'metadata.name', message: 'crd-name message', count: 1 },
        { ruleId: 'scope', file: 'crds/a.yaml', object: CRD, path: 'spec.scope', message: 'scope message', count: 2 },
        { ruleId: 'api-approval', file: 'crds/b.yaml', object: CRD, path: 'spec.scope', message: 'api-approval message', count: 1 },
      ],
    });
  });

  it('writes the same text whatever the order of the findings', () => {
    const fs = [finding('scope', 1), finding('crd-name', 2, { object: { ...CRD, name: 'b.example.com' } }), finding('parse', 3, { object: undefined as never })];
    const a = serializeBaseline(buildBaseline(fs, '/repo'));
    const b = serializeBaseline(buildBaseline([...fs].reverse(), '/repo'));
    expect(a).toBe(b);
    expect(a.endsWith('}\n')).toBe(true);
    expect(JSON.parse(a).version).toBe(1);
  });

  it('stores files relative to the working directory with forward slashes; stdin as stdin', () => {
    expect(baselineFile('/repo/crds/./a.yaml', '/repo/')).toBe('crds/a.yaml');
    expect(baselineFile('crds\\win.yaml', '/repo')).toBe('crds/win.yaml');
    expect(baselineFile('/elsewhere/a.yaml', '/repo')).toBe('/elsewhere/a.yaml');
    expect(baselineFile('-', '/repo')).toBe('stdin');
  });
});

describe('applyBaseline', () => {
  const baseline = buildBaseline([finding('scope', 10), finding('crd-name', 12, { path: 'metadata.name' })], '/repo');

  it('matches without lines or columns: findings that moved are still known', () => {
    const r = applyBaseline([finding('scope', 40, { column: 7 }), finding('crd-name', 1, { path: 'metadata.name' })], baseline, '/repo');
    expect(r).toEqual({ findings: [], matched: 2, fixed: 0 });
  });

  it('a relative and an absolute spelling of the same file match', () => {
    const r = applyBaseline([finding('scope', 1, { file: 'crds/a.yaml' })], baseline, '/repo');
    expect(r.matched).toBe(1);
  });

  it('reports what differs in rule, file, object, path or message; counts what is gone', () => {
    const fresh = [
      finding('scope', 1, { message: 'another message' }),
      finding('scope', 1, { file: '/repo/crds/other.yaml' }),
      finding('scope', 1, { object: { ...CRD, namespace: 'x' } }),
      finding('scope', 1, { path: 'spec.group' }),
      finding('scope', 1, { ruleId: 'versions' }),
    ];
    const r = applyBaseline(fresh, baseline, '/repo');
    expect(r.findings).toEqual(fresh);
    expect(r).toMatchObject({ matched: 0, fixed: 2 });
  });

  it('an entry absorbs as many findings as its count: a further identical one is new', () => {
    const r = applyBaseline([finding('scope', 1), finding('scope', 2)], baseline, '/repo');
    expect(r.findings.map((f) => f.line)).toEqual([2]);
    expect(r).toMatchObject({ matched: 1, fixed: 1 });
  });
});

describe('parseBaseline', () => {
  it('reads what serializeBaseline writes', () => {
    const b = buildBaseline([finding('scope', 1), finding('scope', 2)], '/repo');
    expect(parseBaseline(serializeBaseline(b), 'b.json')).toEqual(b);
  });

  it('count defaults to 1', () => {
    const text = JSON.stringify({ version: 1, findings: [{ ruleId: 'scope', file: 'a.yaml', path: '', message: 'm' }] });
    expect(parseBaseline(text, 'b.json').findings[0]!.count).toBe(1);
  });

  it.each([
    ['not json', '{', /^baseline b\.json: not JSON/],
    ['another version', '{"version":2,"findings":[]}', /unsupported version 2, expected 1/],
    ['no findings array', '{"version":1}', /findings must be an array/],
    ['a field of the wrong type', '{"version":1,"findings":[{"ruleId":1,"file":"a","path":"","message":"m"}]}', /findings\[0\]\.ruleId must be a string/],
    ['a bad count', '{"version":1,"findings":[{"ruleId":"a","file":"a","path":"","message":"m","count":0}]}', /count must be a whole number >= 1/],
    ['an unknown object key', '{"version":1,"findings":[{"ruleId":"a","file":"a","path":"","message":"m","object":{"uid":"x"}}]}', /object may only hold/],
  ])('refuses %s with exit 2', (_name, text, message) => {
    expect(() => parseBaseline(text, 'b.json')).toThrow(message);
    try {
      parseBaseline(text, 'b.json');
    } catch (e) {
      expect((e as { exitCode: number }).exitCode).toBe(2);
    }
  });
});
