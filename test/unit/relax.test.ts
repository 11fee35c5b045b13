import { describe, expect, it } from 'vitest';
import { relaxQuotedIndentation } from '../../src/manifest/relax.js';
import { parseFile } from '../../src/manifest/parse.js';

// The shape YAML emitters give long CEL rules (gateway-api's experimental install manifest, v1.5.1):
// go-yaml, and so kubectl, accepts it; a strict YAML 1.2 parser does not.
const UNDER_INDENTED = `x-kubernetes-validations:
  - message: sectionName must be specified
    rule: 'self.all(p1, self.all(p2, p1.group == p2.group && p1.kind
  == p2.kind ? ((!has(p1.sectionName) || p1.sectionName
  == '''') == true)
  : true))'
    other: 1
`;

describe('quoted scalars with under-indented continuation lines (go-yaml leniency)', () => {
  it('re-indents only the continuation lines, keeping line numbers', () => {
    const out = relaxQuotedIndentation(UNDER_INDENTED)!;
    expect(out.split('\n')).toHaveLength(UNDER_INDENTED.split('\n').length);
    expect(out.split('\n')[3]).toBe('     == p2.kind ? ((!has(p1.sectionName) || p1.sectionName');
    expect(out.split('\n')[6]).toBe('    other: 1');
  });

  it('parses such a document as kubectl does', () => {
    const [doc] = parseFile({ path: 'x.yaml', text: `kind: X\napiVersion: v1\nspec:\n${UNDER_INDENTED.replace(/^/gm, '  ')}` });
    expect(doc!.problems).toEqual([]);
    const rule = ((doc!.manifests[0]!.value['spec'] as Record<string, unknown>)['x-kubernetes-validations'] as Record<string, string>[])[0]!['rule'];
    expect(rule).toBe("self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind ? ((!has(p1.sectionName) || p1.sectionName == '') == true) : true))");
  });

  it('leaves block scalars alone and changes nothing in well-formed YAML', () => {
    expect(relaxQuotedIndentation("a: |\n  it's\nb: 'x'\n")).toBeUndefined();
  });
});
