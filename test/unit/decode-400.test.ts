/**
 * A CRD the server's decoder refuses (400 BadRequest: a field of the wrong JSON type, or unknown
 * fields under fieldValidation=Strict) is answered with that alone: the server validates nothing
 * else, so lint reports no other server verdict for it; advisory rules still run.
 */
import { describe, expect, it } from 'vitest';
import { parseKubeVersion } from '../../src/core/kube-version.js';
import type { FieldValidation } from '../../src/core/field-validation.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';

/** No storage version (422 on its own) and a Go-typed field set per case. */
const crd = (extra: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
${extra}  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object}
`;

const lint = (text: string, fieldValidation?: FieldValidation) =>
  lintSources([{ path: 'crd.yaml', text }], { kubeVersion: parseKubeVersion('1.36')!, cel, ...(fieldValidation ? { fieldValidation } : {}) }).findings.map(
    (f) => `${f.ruleId}: ${f.message}`,
  );

// the server's texts (kubectl create --dry-run=server of this CRD on v1.36)
const STORAGE =
  'versions: spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version';
const STORED = 'versions: status.storedVersions: Invalid value: null: must have at least one stored version';

describe('the decoder’s 400 is the whole answer', () => {
  it('without a decode problem the 422 causes are reported', () => {
    expect(lint(crd(''))).toEqual([STORAGE, STORED]);
  });
  it('a field of the wrong type: only the 400, whatever the field validation', () => {
    for (const mode of ['Strict', 'Warn', 'Ignore'] as const)
      expect(lint(crd('  preserveUnknownFields: "x"\n'), mode)).toEqual([
        'crd-decode: json: cannot unmarshal string into Go struct field CustomResourceDefinitionSpec.spec.preserveUnknownFields of type bool (at spec.preserveUnknownFields: the server answers 400 BadRequest)',
      ]);
  });
  it('an unknown field under Strict: only the 400', () => {
    expect(lint(crd('  bogus: 1\n'), 'Strict')).toEqual(['crd-decode: unknown field "spec.bogus" (fieldValidation=Strict: the server answers 400 BadRequest)']);
  });
  it('an unknown field under Warn: the warning and the 422 causes; under Ignore: the 422 causes', () => {
    expect(lint(crd('  bogus: 1\n'), 'Warn')).toEqual(['crd-warnings: unknown field "spec.bogus"', STORAGE, STORED]);
    expect(lint(crd('  bogus: 1\n'), 'Ignore')).toEqual([STORAGE, STORED]);
  });
});
