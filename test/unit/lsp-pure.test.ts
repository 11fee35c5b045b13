import { describe, expect, it } from 'vitest';
import { addKeyEdit, removeKeyEdit, type TextEditAt } from '../../src/lsp/edits.js';
import { kindsNamed, parseFieldPath } from '../../src/lsp/paths.js';
import { readSettings, schemaPathFor } from '../../src/lsp/server.js';

function apply(text: string, e: TextEditAt | undefined): string {
  if (!e) throw new Error('no edit');
  const lines = text.split('\n');
  const off = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return text.slice(0, off(e.range.start)) + e.newText + text.slice(off(e.range.end));
}

describe('removeKeyEdit', () => {
  const doc = 'spec:\n  a: 1\n  bad:\n    x: 1\n    y:\n    - 2\n  list:\n  - 1\n  b: 2\n';
  it.each([
    ['a scalar entry', 1, 2, 'spec:\n  bad:\n    x: 1\n    y:\n    - 2\n  list:\n  - 1\n  b: 2\n'],
    ['an entry with a nested mapping', 2, 2, 'spec:\n  a: 1\n  list:\n  - 1\n  b: 2\n'],
    ['an entry whose sequence sits at its own indentation', 6, 2, 'spec:\n  a: 1\n  bad:\n    x: 1\n    y:\n    - 2\n  b: 2\n'],
    ['the last entry of the text', 8, 2, 'spec:\n  a: 1\n  bad:\n    x: 1\n    y:\n    - 2\n  list:\n  - 1\n'],
  ])('%s', (_, line, col, want) => {
    expect(apply(doc, removeKeyEdit(doc, line, col))).toBe(want);
  });
  it('the last line without a line break takes the break before it', () => {
    expect(apply('a: 1\nb: 2', removeKeyEdit('a: 1\nb: 2', 1, 0))).toBe('a: 1');
  });
  it('offers nothing inside a flow mapping or after a sequence dash', () => {
    expect(removeKeyEdit('x: {a: 1, b: 2}\n', 0, 10)).toBeUndefined();
    expect(removeKeyEdit('- a: 1\n  b: 2\n', 0, 2)).toBeUndefined();
  });
});

describe('addKeyEdit', () => {
  it('adds before the first entry of a block mapping given by its key', () => {
    const t = 'scale:\n  # c\n  specReplicasPath: .spec.replicas\n';
    expect(apply(t, addKeyEdit(t, 0, 0, 'statusReplicasPath', '.status.replicas'))).toBe('scale:\n  # c\n  statusReplicasPath: .status.replicas\n  specReplicasPath: .spec.replicas\n');
  });
  it('adds inside a flow mapping, empty or not', () => {
    expect(apply('scale: {}\n', addKeyEdit('scale: {}\n', 0, 0, 'k', 'v'))).toBe('scale: {k: v}\n');
    expect(apply('scale: {a: 1}\n', addKeyEdit('scale: {a: 1}\n', 0, 0, 'k', 'v'))).toBe('scale: {k: v, a: 1}\n');
  });
  it('keeps CRLF line ends', () => {
    const t = 'scale:\r\n  a: 1\r\n';
    expect(apply(t, addKeyEdit(t, 0, 0, 'k', 'v'))).toBe('scale:\r\n  k: v\r\n  a: 1\r\n');
  });
  it('offers nothing for a scalar value or a mapping without entries below', () => {
    expect(addKeyEdit('scale: 3\n', 0, 0, 'k', 'v')).toBeUndefined();
    expect(addKeyEdit('scale:\nnext: 1\n', 0, 0, 'k', 'v')).toBeUndefined();
  });
});

describe('paths', () => {
  it('reads lint paths back into segments', () => {
    expect(parseFieldPath('spec.ports[0].name')).toEqual(['spec', 'ports', 0, 'name']);
    expect(parseFieldPath('metadata.labels[a.b/c]')).toEqual(['metadata', 'labels', 'a.b/c']);
  });
  it('names the kinds of a text, undefined for one that is not a plain name', () => {
    expect([...kindsNamed('kind: Foo\n---\n{"kind": "Bar"}\nx: {kind: Baz}\n')!].sort()).toEqual(['Bar', 'Baz', 'Foo']);
    expect(kindsNamed('kind: &a Foo\n')).toBeUndefined();
  });
  it('follows a value path into a schema: properties, items, additionalProperties; stops where it cannot', () => {
    const schema = { properties: { spec: { properties: { ports: { items: { properties: { name: {} } } }, labels: { additionalProperties: { type: 'string' } } } } } };
    expect(schemaPathFor(schema, ['spec', 'ports', 0, 'name'])).toEqual(['properties', 'spec', 'properties', 'ports', 'items', 'properties', 'name']);
    expect(schemaPathFor(schema, ['spec', 'labels', 'x'])).toEqual(['properties', 'spec', 'properties', 'labels', 'additionalProperties']);
    expect(schemaPathFor(schema, ['spec', 'nope', 'x'])).toEqual(['properties', 'spec']);
  });
});

describe('readSettings', () => {
  it('reads the client settings and reports unusable values', () => {
    const { settings, problems } = readSettings({ crdPaths: ['crds', 3], kubeVersion: '1.30', validate: 'warn', debounceMs: 50, cluster: { context: 'kind' } });
    expect(settings).toMatchObject({ crdPaths: ['crds'], kubeVersion: { major: 1, minor: 30 }, fieldValidation: 'Warn', debounceMs: 50, clusterContext: 'kind' });
    expect(problems).toEqual([]);
    const bad = readSettings({ kubeVersion: '2.0', validate: 'loose' });
    expect(bad.settings.fieldValidation).toBe('Strict');
    expect(bad.problems).toEqual([expect.stringContaining('crdx.kubeVersion "2.0"'), expect.stringContaining('crdx.validate "loose"')]);
  });
});
