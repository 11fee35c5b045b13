/**
 * Never silent: a CEL rule the server evaluates and crdx cannot is reported, with the rule, its
 * place in the CRD and why, by lint, default, status and scale alike.
 */
import { describe, expect, it } from 'vitest';
import { parseKubeVersion } from '../../src/core/kube-version.js';
import { defaultSources } from '../../src/engine/default.js';
import { lintSources } from '../../src/engine/lint.js';
import { scaleSources, statusSources } from '../../src/engine/subresources.js';
import { cel } from '../helpers/cel.js';

const kubeVersion = parseKubeVersion('1.36')!;

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.start.getHours('Local') < 24"
            properties:
              start: {type: string, format: date-time}
              mem: {type: string}
              replicas: {type: integer}
              timeout: {type: string, format: duration}
          status:
            type: object
            properties:
              replicas: {type: integer}
`;
const CR = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec: {mem: 1Mi, replicas: 1, timeout: 2d, start: "2026-11-28T10:00:00Z"}
`;
const crdFile = { path: 'crd.yaml', text: CRD };
const crFile = { path: 'cr.yaml', text: CR };
const MESSAGE =
  'CEL rule "self.start.getHours(\'Local\') < 24" (crd.yaml:22:15) was not evaluated: crdx does not reproduce the server here: the time zone "Local" (the server\'s own); the server evaluates it and may reject this object';

const celOf = (fs: readonly { ruleId: string; severity: string; message: string; file: string; line: number; path: string }[]) =>
  fs.filter((f) => f.ruleId === 'cel-not-evaluated').map((f) => `${f.severity} ${f.file}:${f.line} ${f.path}: ${f.message}`);
const WANT = [`warning cr.yaml:4 spec: ${MESSAGE}`];

describe('cel-not-evaluated in every command', () => {
  it('lint', () => {
    const r = lintSources([crFile], { kubeVersion, cel, crdFiles: [crdFile] });
    expect(celOf(r.findings)).toEqual(WANT);
    expect(r.summary.warnings).toBe(1);
  });
  it('default', () => {
    const r = defaultSources([crFile], [crdFile], { kubeVersion, cel });
    expect(r.objects.flatMap((o) => celOf(o.findings))).toEqual(WANT);
  });
  it('status: a create, and an update through /status and the main endpoint', () => {
    expect(statusSources([crFile], [], [crdFile], { kubeVersion, cel, via: 'status' }).items.flatMap((x) => celOf(x.findings))).toEqual(WANT);
    const stored = { path: 'old.yaml', text: CR.replace('namespace: default', 'namespace: default, resourceVersion: "7"') };
    const newer = { path: 'cr.yaml', text: stored.text.replace('replicas: 1', 'replicas: 2') };
    expect(statusSources([newer], [stored], [crdFile], { kubeVersion, cel, via: 'main' }).items.flatMap((x) => celOf(x.findings))).toEqual(WANT);
  });
  it('scale: the update a new replica count makes', () => {
    expect(scaleSources([crFile], [crdFile], { kubeVersion, cel, replicas: 3 }).items.flatMap((x) => celOf(x.findings))).toEqual(WANT);
  });
  it('nothing when every rule is evaluated', () => {
    // a duration in strfmt's spelling ("2d") is bound as the server binds it
    const evaluable = { path: 'crd.yaml', text: CRD.replace("self.start.getHours('Local') < 24", "self.replicas >= 0 && duration('24h') < self.timeout && [?optional.of(self.replicas), ?optional.none()].size() == 1") };
    const r = lintSources([crFile], { kubeVersion, cel, crdFiles: [evaluable] });
    expect(celOf(r.findings)).toEqual([]);
    // the CRD is served and the object checked: no finding at all
    expect(r.findings).toEqual([]);
  });
});
