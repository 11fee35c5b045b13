import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/types.js';
import { applySuppressions, scanDirectives, SUPPRESSION_RULE_ID } from '../../src/engine/suppress.js';

const KNOWN = new Set(['scope', 'status-property', 'structural-schema', 'parse']);

function finding(ruleId: string, line: number, extra: Partial<Finding> = {}): Finding {
  return { ruleId, severity: 'error', message: `${ruleId} at ${line}`, messageId: 'm', file: 'crd.yaml', line, column: 3, document: 0, path: 'spec', ...extra };
}

const file = (text: string) => ({ path: 'crd.yaml', text });

describe('scanDirectives', () => {
  it('reads rules, reason and the covered lines of both forms', () => {
    const text = [
      'apiVersion: v1', // 1
      '# crdx-disable-next-line scope, status-property -- accepted in 2024', // 2
      '', // 3
      '# a plain comment', // 4
      'scope: x', // 5
      '# crdx-disable structural-schema -- legacy schema', // 6
      'spec: {}', // 7
      '---', // 8
      'kind: Other', // 9
    ].join('\n');
    const ds = scanDirectives(file(text), KNOWN);
    expect(ds).toEqual([
      expect.objectContaining({ kind: 'disable-next-line', rules: ['scope', 'status-property'], reason: 'accepted in 2024', line: 2, column: 1, from: 5, to: 5, document: 0 }),
      expect.objectContaining({ kind: 'disable', rules: ['structural-schema'], reason: 'legacy schema', line: 6, from: 6, to: 7, document: 0 }),
    ]);
  });

  it('a document nested too deeply for the yaml lexer is left out; the others keep their directives', () => {
    // more than MAX_DEPTH compact entries on a line: refused before the lexer sees them, as the parser refuses them
    for (const deep of ['- '.repeat(20_000) + '1', '- '.repeat(1_200) + '1', 'x:\n  ' + '- '.repeat(7_966) + '1']) {
      const text = ['# crdx-disable-next-line scope -- r', 'scope: x', '---', deep, '# crdx-disable-next-line scope -- unread', 'scope: y', '---', 'a: 1', '# crdx-disable structural-schema -- s', 'b: 2'].join('\n');
      const ds = scanDirectives(file(text), KNOWN);
      expect(ds).toEqual([
        expect.objectContaining({ kind: 'disable-next-line', rules: ['scope'], line: 1, from: 2, to: 2, document: 0 }),
        expect.objectContaining({ kind: 'disable', rules: ['structural-schema'], line: text.split('\n').indexOf('# crdx-disable structural-schema -- s') + 1, document: 2 }),
      ]);
    }
  });

  it('a # inside a block scalar or a quoted string is not a comment', () => {
    const text = ['description: |', '  # crdx-disable scope -- not a comment', 'name: "# crdx-disable scope -- no"', "other: '# crdx-disable-next-line scope'"].join('\n');
    expect(scanDirectives(file(text), KNOWN)).toEqual([]);
  });

  it('a trailing comment counts, indented or not; the next line skips blank and comment lines', () => {
    const text = ['spec:', '  group: x  # crdx-disable-next-line scope -- r', '  # another note', '', '  scope: y'].join('\n');
    expect(scanDirectives(file(text), KNOWN)).toEqual([expect.objectContaining({ line: 2, column: 13, from: 5, to: 5 })]);
  });

  it('crdx-disable above a --- belongs to the document after it, and ends with it', () => {
    const text = ['a: 1', '# crdx-disable scope -- r', '---', 'b: 2', 'c: 3', '---', 'd: 4'].join('\n');
    const [d] = scanDirectives(file(text), KNOWN);
    expect(d).toMatchObject({ from: 2, to: 5, document: 1 });
  });

  it('a head comment before the first --- is in document 0; crdx-disable runs to the end of the file without another ---', () => {
    const text = ['# crdx-disable scope -- r', '---', 'b: 2', 'c: 3'].join('\n');
    expect(scanDirectives(file(text), KNOWN)).toEqual([expect.objectContaining({ from: 1, to: 4, document: 0 })]);
  });

  it('unknown rules, a missing rule list and unknown directives are kept for reporting', () => {
    const text = ['# crdx-disable-next-line scope, nope -- r', 'a: 1', '# crdx-disable', '# crdx-disable-line scope -- r', '# prose that mentions crdx-disable later is no directive'].join('\n');
    const ds = scanDirectives(file(text), KNOWN);
    expect(ds).toHaveLength(3);
    expect(ds[0]).toMatchObject({ rules: ['scope'], unknown: ['nope'] });
    expect(ds[1]).toMatchObject({ rules: [], malformed: 'crdx-disable' });
    expect(ds[2]).toMatchObject({ malformed: 'crdx-disable-line' });
  });

  it('does not lex files that do not mention crdx-', () => {
    // an unterminated flow collection would be a lexer problem; without the marker nothing is read
    expect(scanDirectives(file('a: [1, 2\n# a comment\n'), KNOWN)).toEqual([]);
  });
});

describe('applySuppressions', () => {
  const text = [
    'kind: CustomResourceDefinition', // 1
    '# crdx-disable-next-line scope -- the cluster is old', // 2
    'scope: x', // 3
    '# crdx-disable structural-schema -- legacy', // 4
    'spec:', // 5
    '  a: 1', // 6
  ].join('\n');

  it('moves covered findings apart with the justification and keeps the rest', () => {
    const r = applySuppressions([finding('scope', 3), finding('scope', 5), finding('structural-schema', 6), finding('status-property', 6)], [file(text)], KNOWN);
    expect(r.suppressed.map((f) => [f.ruleId, f.line, f.suppressions])).toEqual([
      ['scope', 3, [{ kind: 'inSource', justification: 'the cluster is old', line: 2, column: 1 }]],
      ['structural-schema', 6, [{ kind: 'inSource', justification: 'legacy', line: 4, column: 1 }]],
    ]);
    expect(r.findings.map((f) => [f.ruleId, f.line])).toEqual([
      ['scope', 5],
      ['status-property', 6],
    ]);
  });

  it('reports a suppression that covers nothing, at the comment', () => {
    const r = applySuppressions([finding('scope', 3)], [file(text)], KNOWN);
    expect(r.findings).toEqual([
      expect.objectContaining({ ruleId: SUPPRESSION_RULE_ID, severity: 'warning', messageId: 'unused', line: 4, column: 1, message: 'unused suppression: no structural-schema finding from here to the end of the document' }),
    ]);
  });

  it('reports a suppression without a reason, and still applies it', () => {
    const t = ['# crdx-disable-next-line scope', 'scope: x'].join('\n');
    const r = applySuppressions([finding('scope', 2)], [file(t)], KNOWN);
    expect(r.suppressed).toHaveLength(1);
    expect(r.suppressed[0]!.suppressions[0]!.justification).toBe('');
    expect(r.findings).toEqual([expect.objectContaining({ ruleId: 'suppression', messageId: 'missingReason', line: 1 })]);
  });

  it('reports unknown rules and malformed comments', () => {
    const t = ['# crdx-disable-next-line scope, no-such-rule -- r', 'scope: x', '# crdx-disable -- no rule named', '# crdx-enable scope'].join('\n');
    const r = applySuppressions([finding('scope', 2)], [file(t)], KNOWN);
    expect(r.findings.map((f) => [f.messageId, f.line, f.message])).toEqual([
      ['unknownRule', 1, 'crdx-disable-next-line names an unknown rule "no-such-rule"'],
      ['malformed', 3, 'crdx-disable names no rule: write # crdx-disable RULE[, RULE…] -- reason'],
      ['malformed', 4, 'unknown directive crdx-enable: crdx knows crdx-disable and crdx-disable-next-line'],
    ]);
  });

  it('never suppresses a finding of a file it does not belong to, nor a fatal one', () => {
    const t = ['# crdx-disable parse, scope -- r', 'a: ['].join('\n');
    const fatal = finding('parse', 2, { fatal: true });
    const other = finding('scope', 2, { file: 'other.yaml' });
    const r = applySuppressions([fatal, other], [file(t)], KNOWN);
    expect(r.suppressed).toEqual([]);
    expect(r.findings).toContain(fatal);
    expect(r.findings).toContain(other);
    expect(r.findings.filter((f) => f.messageId === 'unused')).toHaveLength(2);
  });

  it('returns the findings unchanged when no file has a directive', () => {
    const fs = [finding('scope', 1)];
    expect(applySuppressions(fs, [file('a: 1\n')], KNOWN)).toEqual({ findings: fs, suppressed: [] });
  });
});
