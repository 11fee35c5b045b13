/**
 * The CEL engine is an explicit input (src/core/cel-engine.ts, src/schema/cel-syntax.ts): loaded
 * only when an input may hold rules, and an engine or command wired without it fails loudly on a
 * CRD with x-kubernetes-validations instead of skipping CEL.
 */
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InternalError } from '../../src/core/errors.js';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { defaultSources } from '../../src/engine/default.js';
import { lintSources } from '../../src/engine/lint.js';
import { scaleSources, statusSources } from '../../src/engine/subresources.js';
import { celFor, mayHoldCelRules } from '../../src/schema/cel-syntax.js';
import { cel } from '../helpers/cel.js';

const ROOT = join(import.meta.dirname, '..', '..');
const kubeVersion = DEFAULT_KUBE_VERSION;
const WIDGETS = { path: 'fixtures/crds/01-widgets.yaml', text: readFileSync(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), 'utf8') };
const WIDGET = { path: 'w.yaml', text: 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec: {replicas: 1, minReplicas: 3}\n' };
const NO_RULES = { path: 'plain.yaml', text: WIDGETS.text.replace(/ *x-kubernetes-validations:\n.*\n.*\n/, '') };

describe('an engine wired without the CEL engine', () => {
  const missing = /no CEL engine was passed in/;

  it('lint: throws an internal error on a CRD with rules, never skips them', () => {
    expect(() => lintSources([WIDGETS], { kubeVersion, cel: undefined })).toThrow(InternalError);
    expect(() => lintSources([WIDGETS], { kubeVersion, cel: undefined })).toThrow(missing);
  });

  it('default, status and scale: throw when an object meets a rule', () => {
    expect(() => defaultSources([WIDGET], [WIDGETS], { kubeVersion, cel: undefined })).toThrow(missing);
    expect(() => statusSources([WIDGET], [], [WIDGETS], { kubeVersion, cel: undefined, via: 'main' })).toThrow(missing);
    // GET /scale validates nothing, but whether the server serves the CRD at all takes its rules compiled
    expect(() => scaleSources([WIDGET], [WIDGETS], { kubeVersion, cel: undefined })).toThrow(missing);
    expect(scaleSources([WIDGET], [WIDGETS], { kubeVersion, cel }).items).toHaveLength(1);
  });

  it('needs no engine when no input holds a rule', () => {
    expect(NO_RULES.text).not.toContain('x-kubernetes-validations');
    expect(lintSources([NO_RULES], { kubeVersion, cel: undefined }).findings).toEqual([]);
    expect(defaultSources([WIDGET], [NO_RULES], { kubeVersion, cel: undefined }).objects[0]?.result.errors).toEqual([]);
  });

  it('with the engine, the same inputs are checked: the rule denies the object', () => {
    expect(lintSources([WIDGETS], { kubeVersion, cel }).findings).toEqual([]);
    const run = defaultSources([WIDGET], [WIDGETS], { kubeVersion, cel });
    expect(run.objects[0]?.result.errors.map((e) => e.detail)).toEqual(['replicas must be at least minReplicas']);
  });
});

describe('celFor', () => {
  it('loads the engine only for files that may hold rules', async () => {
    let loads = 0;
    const load = async () => (loads++, cel);
    expect(await celFor([NO_RULES, WIDGET], load)).toBeUndefined();
    expect(loads).toBe(0);
    expect(await celFor([NO_RULES, WIDGETS], load)).toBe(cel);
    expect(loads).toBe(1);
  });

  it('counts a key that escapes could spell as one that may hold rules', () => {
    expect(mayHoldCelRules('"x-kubernetes-validation\\u0073": []')).toBe(true);
    expect(mayHoldCelRules('"x-kubernetes-validation\\x73": []')).toBe(true);
    expect(mayHoldCelRules('"x-kubernetes-\\\nvalidations": []')).toBe(true);
    expect(mayHoldCelRules("pattern: '^\\d+$'")).toBe(false);
  });
});

describe('the CLI wires the engine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crdx-cel-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('checks the rules of a CRD whose key is spelled with escapes (loaded, not skipped)', async () => {
    // the key as a double-quoted YAML scalar with a \x escape; the rule does not parse
    const text = WIDGETS.text.replace('x-kubernetes-validations:', '"x-kubernetes-validation\\x73":').replace('self.minReplicas <= self.replicas', 'self.minReplicas <=');
    expect(text).not.toContain('x-kubernetes-validations');
    writeFileSync(join(dir, 'crd.yaml'), text);
    const r = await execa('node', [join(ROOT, 'bin', 'kubectl-crdx'), 'lint', '-o', 'json', join(dir, 'crd.yaml')], { reject: false });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('Syntax error');
  });
});
