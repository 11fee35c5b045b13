/**
 * The literal format() call validator (src/schema/cel/format-check.ts): which servers run it, its
 * texts, and the homogeneous literal exemption it brings. Texts and verdicts on 1.37 are checked
 * against a real server by test/conformance/cel-compile.conformance.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compileCel, formatIssues } from '../../src/schema/cel/check.js';
import { STRING } from '../../src/schema/cel/types.js';

function issues(text: string, server: number, compat = server - 1): string {
  const out = compileCel(text, { compat, server, variables: new Map([['self', STRING]]) }, undefined);
  return out.issues.length ? formatIssues(out.parsed!.source, out.issues) : '';
}

describe('literal format() calls', () => {
  it('reports a clause whose argument has the wrong type at the argument', () => {
    expect(issues("'%d'.format([self]) == ''", 37)).toBe(
      "ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given string\n | '%d'.format([self]) == ''\n | .............^",
    );
  });

  it('reports the argument count and format string errors at the call', () => {
    expect(issues("'%s'.format(['a', 'b']) == ''", 37)).toContain('too many arguments supplied to string.format (expected 1, got 2)');
    expect(issues("'%s %s'.format(['a']) == ''", 37)).toContain('index 1 out of range');
    expect(issues("'%.f'.format([1.0]) == ''", 37)).toContain('could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax');
    expect(issues("'%é'.format([1]) == ''", 37)).toContain('could not parse formatting clause: unrecognized formatting clause "Ã"');
  });

  it('looks into list and map literals for %s', () => {
    expect(issues("'%s'.format([[1, optional.none()]]) == ''", 37)).toContain('was given optional_type');
    expect(issues("'%s %s'.format([[1, 'a'], {'a': 1, 'b': 'x'}]) == ''", 37)).toBe('');
  });

  it('prints the text as a Go format string before cel-go 0.23 (1.33)', () => {
    expect(issues("'%.2%'.format([1.0]) == ''", 32)).toContain('unrecognized formatting clause "%!"(MISSING)');
    expect(issues("'%.2%'.format([1.0]) == ''", 33)).toContain('unrecognized formatting clause "%"');
  });

  it('does not run before cel-go 0.18 (1.31); format() literals may mix types on every server', () => {
    expect(issues("'%d'.format(['a']) == ''", 30)).toBe('');
    expect(issues("'%s %d'.format(['a', 1]) == ''", 30)).toBe('');
    expect(issues("'%s %d'.format(['a', 1]) == '' && [1, 'a'].size() > 0", 30)).toContain("expected type 'int' but found 'string'");
  });
});
