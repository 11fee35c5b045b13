import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../../src/rules/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ADVISORY_NOTE = 'not checked by the server';

/**
 * A reference names upstream source, never our own notes: `<module> <path>.go: <Func>[, <Func>]`,
 * several files separated by `; `, optionally one closing parenthesised note (advisory rules).
 */
const SEGMENT = /^k8s\.io\/[a-z0-9.-]+ (?:[\w.-]+\/)*[\w.-]+\.go: [A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?(?:, [A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)*$/;

function referenceProblems(reference: string, advisory: boolean): string[] {
  const problems: string[] = [];
  if (/\.md\b/.test(reference)) problems.push('names a .md file');
  if (reference.includes('§')) problems.push('cites a section (§) of notes');
  const note = /^(.*?) \(([^()]*)\)$/.exec(reference);
  const body = note ? note[1]! : reference;
  for (const seg of body.split('; ')) if (!SEGMENT.test(seg)) problems.push(`not "<k8s.io module> <path>.go: <Func>[, <Func>]": ${seg}`);
  if (advisory && !note?.[2]?.includes(ADVISORY_NOTE)) problems.push(`advisory rule without "(${ADVISORY_NOTE} …)"`);
  if (!advisory && reference.includes(ADVISORY_NOTE)) problems.push(`server-faithful rule says "${ADVISORY_NOTE}"`);
  return problems;
}

/** File names such as crd-validation.md mentioned in text. */
const mdNames = (text: string): string[] => [...text.matchAll(/[\w./-]*\w\.md\b/g)].map((m) => m[0]);

describe('rule references', () => {
  it('the format check rejects notes and accepts upstream functions', () => {
    expect(referenceProblems('crd-validation.md §1 (M6, M7)', false)).not.toEqual([]);
    expect(referenceProblems('apimachinery ValidateAnnotations (TotalAnnotationSizeLimitB); kubectl apply', true)).not.toEqual([]);
    expect(referenceProblems('k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go', false)).not.toEqual([]);
    expect(referenceProblems('k8s.io/apiserver pkg/endpoints/handlers/rest.go: transformDecodeError; see runtime-semantics.md', false)).not.toEqual([]);
    expect(referenceProblems('k8s.io/apiextensions-apiserver pkg/registry/customresource/etcd.go: ScaleREST.Get', true)).not.toEqual([]);
    expect(
      referenceProblems(
        'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceDefinitionSpec, validateCustomResourceDefinitionValidation',
        false,
      ),
    ).toEqual([]);
    expect(
      referenceProblems(
        `k8s.io/apiextensions-apiserver pkg/registry/customresource/etcd.go: ScaleREST.Get; k8s.io/apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go: PruneWithOptions (${ADVISORY_NOTE})`,
        true,
      ),
    ).toEqual([]);
  });

  for (const r of rules) {
    it(`${r.id}: reference names upstream files and functions`, () => {
      expect(referenceProblems(r.meta.docs.reference, !r.meta.serverFaithful)).toEqual([]);
    });
    it(`${r.id}: docs and messages mention no notes outside the repository`, () => {
      const texts = [r.meta.docs.description, r.meta.docs.details, ...Object.values(r.meta.messages)];
      for (const t of texts) {
        expect(mdNames(t)).toEqual([]);
        expect(t).not.toContain('§');
      }
    });
  }

  it('generated rule pages link only to files of the repository', () => {
    const dir = join(ROOT, 'docs', 'rules');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.md'))) {
      const text = readFileSync(join(dir, f), 'utf8');
      const missing = mdNames(text).filter((m) => !existsSync(join(dir, m)) && !existsSync(join(ROOT, m)));
      expect({ page: f, missing }).toEqual({ page: f, missing: [] });
      expect({ page: f, section: text.includes('§') }).toEqual({ page: f, section: false });
    }
  });
});
