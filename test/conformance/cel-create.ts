/**
 * What cel-compile.conformance.test.ts and cel-fuzz.conformance.test.ts share: a CRD built around
 * the rules under test, and its comparison with a real server's dry-run create. The CRD is linted for
 * the server's minor and created with dryRun; crdx must give the same status (201 or 422), exactly
 * the same set of causes (reason, field, message: every cause the server gives, whatever its kind:
 * syntax, type-check, cost, program construction, schema), and no rule it says it could not check.
 * A request the server panics on gets no answer at all (the connection is reset): crdx must say so
 * (cel-compile-panic) for each such rule. Object type names are compared with the server's
 * `selfType<UnixNano>` written as crdx's `selfType0`.
 */
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';
import type { Harness } from './harness.js';

/** The properties of spec both suites build on (each adds its own): the declared types a rule meets. */
export const CORE_PROPS = `
                replicas: {type: integer}
                name: {type: string, maxLength: 20}
                ratio: {type: number}
                flag: {type: boolean}
                ios: {x-kubernetes-int-or-string: true}
                raw: {type: object, x-kubernetes-preserve-unknown-fields: true}
                start: {type: string, format: date-time}
                timeout: {type: string, format: duration}
                data: {type: string, format: byte, maxLength: 20}
                items: {type: array, maxItems: 5, items: {type: integer}}
                tags: {type: object, maxProperties: 5, additionalProperties: {type: string, maxLength: 10}}
                set: {type: array, maxItems: 5, x-kubernetes-list-type: set, items: {type: string, maxLength: 5}}
                objs:
                  type: array
                  maxItems: 3
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [name]
                  items:
                    type: object
                    required: [name]
                    properties:
                      name: {type: string, maxLength: 10}
                      n: {type: integer}
                dash-name: {type: string, maxLength: 5}
                namespace: {type: string, maxLength: 5}`;

/**
 * A namespaced CRD `<kind>`, its schema an object with `spec` of `props`; `rootRules` and
 * `specRules` are the YAML list items of their x-kubernetes-validations (indented for their place).
 */
export function crdWithSpec(o: { readonly kind: string; readonly props: string; readonly rootRules?: string | undefined; readonly specRules?: string | undefined }): string {
  const k = o.kind.toLowerCase();
  const root = o.rootRules !== undefined ? `\n          x-kubernetes-validations:\n${o.rootRules}` : '';
  const spec = o.specRules !== undefined ? `\n              x-kubernetes-validations:\n${o.specRules}` : '';
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${k}s.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: ${k}s, singular: ${k}, kind: ${o.kind}, listKind: ${o.kind}List}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object${root}
          properties:
            spec:
              type: object${spec}
              properties:${o.props}
`;
}

/**
 * What no tool can reproduce, written alike on both sides: the server's `selfType<UnixNano>` as
 * crdx's `selfType0`, and the pointers of a rule printed by Go's %#v before 1.31 (`Reason:
 * (*apiextensions.FieldValueErrorReason)(0xc0001e2a30)`, an address of the server's memory).
 */
export const norm = (s: string): string => s.replace(/selfType\d+/g, 'selfType0').replace(/\)\(0x[0-9a-f]+\)/g, ')(0x…)');

/** A tally of one block: CRDs compared, agreeing, refused by the server. */
export interface Tally {
  compared: number;
  agreed: number;
  rejected: number;
}

export interface ServerCause {
  readonly reason: string;
  readonly field: string;
  readonly message: string;
}

/** crdx's verdict and the server's, to be equal; the server's causes as it gave them. */
export interface CreateComparison {
  readonly crdx: unknown;
  readonly server: unknown;
  readonly causes: readonly ServerCause[];
}

/** Lints `text` for 1.<minor> and dry-run creates its CRD on `h`; counts the comparison in `tally`. */
export async function compareCreate(h: Harness, path: string, text: string, minor: number, tally: Tally): Promise<CreateComparison> {
  const lint = lintSources([{ path, text }], { kubeVersion: { major: 1, minor }, cel });
  const panics = lint.findings.filter((f) => f.ruleId === 'cel-compile-panic');
  const res = await h
    .request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All&fieldValidation=Strict', lint.crds[0]!.manifest.value)
    .catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  tally.compared++;
  if (res instanceof Error || panics.length > 0) {
    const crdx = { answered: panics.length === 0, aborted: panics.length > 0 && panics.every((f) => f.aborted !== undefined) };
    const server = res instanceof Error ? { answered: false, aborted: /socket hang up|ECONNRESET/.test(res.message) } : { answered: true, aborted: false, status: res.status };
    if (JSON.stringify(crdx) === JSON.stringify(server)) tally.agreed++;
    return { crdx, server, causes: [] };
  }
  const causes = res.status === 422 ? ((res.body?.details?.causes ?? []) as ServerCause[]) : [];
  if (res.status === 422) tally.rejected++;
  const theirs = [...new Set(causes.map((x) => `${x.reason} ${x.field}: ${norm(x.message)}`))].sort();
  const ours = [...new Set(lint.findings.filter((f) => f.server).map((f) => `${f.server!.reason} ${f.server!.field}: ${norm(f.server!.message)}`))].sort();
  const unchecked = lint.findings.filter((f) => f.ruleId === 'cel-not-evaluated').map((f) => f.message);
  const crdx = { status: ours.length === 0 ? 201 : 422, causes: ours, unchecked };
  const server = { status: res.status, causes: theirs, unchecked: [] };
  if (JSON.stringify(crdx) === JSON.stringify(server)) tally.agreed++;
  return { crdx, server, causes };
}
