/**
 * Objects of a CRD the server would not serve (src/engine/crd-verdict.ts), and objects no CRD of the
 * run defines (summary.unchecked): never a silent "no problems".
 */
import { describe, expect, it } from 'vitest';
import { defaultSources } from '../../src/engine/default.js';
import { lintSources } from '../../src/engine/lint.js';
import { statusSources } from '../../src/engine/subresources.js';
import { cel } from '../helpers/cel.js';
import { widgetsCrd } from '../helpers/crd.js';

const kube = (minor: number) => ({ major: 1, minor });
const crdWith = (rule: string, props = 'x: {type: integer}') =>
  widgetsCrd({ schema: `type: object\nproperties:\n  spec:\n    type: object\n    x-kubernetes-validations:\n    - rule: "${rule}"\n    properties:\n      ${props}\n` });
const widget = (spec: string) => `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec: ${spec}\n`;
const file = (path: string, text: string) => ({ path, text });

describe('an object of a CRD the server refuses', () => {
  const bad = crdWith('self.nosuch > 1');

  it('lint --crd: one finding, kubectl\'s "no matches for kind", naming the CRD\'s first cause and its position', () => {
    const r = lintSources([file('cr.yaml', widget('{x: "not an integer"}'))], { kubeVersion: kube(37), cel, crdFiles: [file('crd.yaml', bad)] });
    expect(r.findings.map((f) => `${f.ruleId}/${f.messageId} ${f.path} ${f.severity}`)).toEqual(['custom-resource/crdRejected kind error']);
    const f = r.findings[0]!;
    expect(f.server).toBeUndefined();
    expect(f.message).toMatch(/^no matches for kind "Widget" in version "example\.com\/v1": Kubernetes 1\.37 would not serve the CustomResourceDefinition widgets\.example\.com \(nor would 1\.36, so no upgrade kept it stored\): crd\.yaml:\d+:\d+: .*undefined field 'nosuch'/s);
    expect(r.summary.errors).toBe(1);
  });

  it('the CRD in the input: its own finding, and the object\'s', () => {
    const r = lintSources([file('all.yaml', `${bad}---\n${widget('{x: 1}')}`)], { kubeVersion: kube(37), cel });
    expect(r.findings.map((f) => `${f.ruleId}/${f.messageId}`)).toEqual(['cel-compile/server', 'custom-resource/crdRejected']);
    expect(r.findings[1]!.message).not.toContain('nor would');
  });

  it('the verdict is the server\'s whatever rules are turned off', () => {
    const r = lintSources([file('all.yaml', `${bad}---\n${widget('{x: 1}')}`)], { kubeVersion: kube(37), cel, ruleSeverity: new Map([['cel-compile', 'off' as const]]) });
    expect(r.findings.map((f) => `${f.ruleId}/${f.messageId}`)).toEqual(['custom-resource/crdRejected']);
  });

  it('a --crd CRD that only 1.37 refuses was stored by 1.36 and is served: the object is validated', () => {
    // C3: duration(int) compiles on 1.36 and not on 1.37; a stored rule that no longer compiles fails at run time
    const stored = crdWith('duration(self.x) < duration(\'1h\')');
    const asRef = lintSources([file('cr.yaml', widget('{x: 5}'))], { kubeVersion: kube(37), cel, crdFiles: [file('crd.yaml', stored)] });
    expect(asRef.findings.map((f) => f.messageId)).toEqual(['server']);
    expect(asRef.findings[0]!.message).toContain('rule compile error');
    // created now, on 1.37: refused, and so its kind is not served
    const created = lintSources([file('all.yaml', `${stored}---\n${widget('{x: 5}')}`)], { kubeVersion: kube(37), cel });
    expect(created.findings.map((f) => `${f.ruleId}/${f.messageId}`)).toEqual(['cel-compile/server', 'custom-resource/crdRejected']);
  });

  it('lint --old: a refused update leaves the installed CRD, which the object is checked against', () => {
    const installed = crdWith('self.x > 0');
    const update = `${crdWith('self.nosuch > 1')}---\n${widget('{x: 0}')}`;
    const r = lintSources([file('new.yaml', update)], { kubeVersion: kube(37), cel, old: [file('old.yaml', installed)] });
    const cr = r.findings.filter((f) => f.document === 1);
    expect(cr.map((f) => `${f.messageId} ${f.message}`)).toEqual(['server spec: Invalid value: failed rule: self.x > 0']);
  });

  it('default and status: the object is unmatched, with the same text', () => {
    const d = defaultSources([file('cr.yaml', widget('{x: 1}'))], [file('crd.yaml', bad)], { kubeVersion: kube(37), cel });
    expect(d.objects).toEqual([]);
    expect(d.unmatched.map((u) => u.code)).toEqual(['crd-rejected']);
    expect(d.unmatched[0]!.message).toMatch(/^no matches for kind "Widget"/);
    const s = statusSources([file('cr.yaml', widget('{x: 1}'))], [file('old.yaml', widget('{x: 1}'))], [file('crd.yaml', bad)], { kubeVersion: kube(37), cel, via: 'main' });
    expect(s.unmatched.map((u) => u.code)).toEqual(['crd-rejected']);
  });

  it('a CRD the server serves changes nothing', () => {
    const good = crdWith('self.x > 0');
    const r = lintSources([file('cr.yaml', widget('{x: 0}'))], { kubeVersion: kube(37), cel, crdFiles: [file('crd.yaml', good)] });
    expect(r.findings.map((f) => f.message)).toEqual(['spec: Invalid value: failed rule: self.x > 0']);
  });
});

describe('objects no CRD of the run defines', () => {
  const text = `${widget('{}')}---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n---\napiVersion: foo.io/v1\nkind: Bar\nmetadata: {name: b}\n---\napiVersion: foo.io/v1\nkind: Bar\nmetadata: {name: c}\n`;

  it('are counted and named in the summary (built-in kinds are not)', () => {
    const r = lintSources([file('in.yaml', text)], { kubeVersion: kube(37), cel });
    expect(r.findings).toEqual([]);
    expect(r.summary.unchecked).toEqual({ objects: 3, kinds: ['Bar.foo.io', 'Widget.example.com'] });
  });

  it('are checked, and not counted, once their CRD is given', () => {
    const r = lintSources([file('in.yaml', widget('{x: 1}'))], { kubeVersion: kube(37), cel, crdFiles: [file('crd.yaml', crdWith('self.x > 0'))] });
    expect(r.summary.unchecked).toBeUndefined();
  });
});
