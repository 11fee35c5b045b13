/**
 * Every Kubernetes version switch crdx reproduces, as data: the minor where the server's behaviour
 * changes, what it touches and what changes. Code never compares a version with a literal minor; it
 * asks `gated(v, id)` or `since(id)` for an entry here, so the README's version table (generated from
 * this list by `npm run docs`, `versionTable` in src/docs.ts) is the code's own switches.
 * test/unit/version-gates.test.ts keeps it so: no literal minor comparison in src/, every entry used.
 *
 * `basis: 'compat'` marks a switch of the CEL environment, which follows the compatibility version
 * (the server's minor − 1) for new expressions: introduced in 1.N, a library is accepted in new rules
 * from 1.N+1 and in rules already stored from 1.N. Its `minor` is the introduction (the compatibility
 * version compared in code); the table lists it under 1.N+1.
 */
import { atLeast, type KubeVersion } from './kube-version.js';

export type GateArea = 'CRD' | 'custom resources' | 'metadata' | 'CEL' | 'formats';

export interface VersionGate {
  /** The first minor with the new behaviour (for `basis: 'compat'`, the compatibility version). */
  readonly minor: number;
  readonly area: GateArea;
  /** What crdx does from that minor on, in a few words (the README table's text). */
  readonly what: string;
  readonly basis?: 'compat';
}

export const GATES = {
  'crd.v1beta1-default-reason': {
    minor: 19,
    area: 'CRD',
    what: 'a default in a v1beta1 CRD is refused with the reason "cannot set default values in apiextensions.k8s.io/v1beta1 CRDs, must use apiextensions.k8s.io/v1"',
  },
  'crd.v1beta1-not-served': {
    minor: 22,
    area: 'CRD',
    what: 'apiextensions.k8s.io/v1beta1 is no longer served: v1beta1 CRDs are refused (v1beta1-crd) and not checked further',
  },
  'crd.preserve-unknown-fields-name': {
    minor: 25,
    area: 'CRD',
    what: 'messages name the extension `x-kubernetes-preserve-unknown-fields` (before: `x-preserve-unknown-fields`)',
  },
  'cr.finalizer-warnings': {
    minor: 29,
    area: 'custom resources',
    what: 'warnings for finalizer names that are not domain-qualified',
  },
  'crd.selectable-fields': {
    minor: 30,
    area: 'CRD',
    what: 'selectableFields exist (alpha, gate off: dropped unless the installed CRD has some)',
  },
  'crd.selectable-fields-on': {
    minor: 31,
    area: 'CRD',
    what: 'selectableFields are validated and kept (gate beta, on)',
  },
  'cr.finalizer-warning-path': {
    minor: 32,
    area: 'custom resources',
    what: 'a finalizer with a domain but no path warns "prefer a domain-qualified finalizer name including a path (/)"',
  },
  'crd.short-messages': {
    minor: 34,
    area: 'CRD',
    what: 'shorter texts: CEL rule message/fieldPath errors without the "message "/"fieldPath " prefix, selectableFields and schema-required texts; rule values printed as JSON instead of Go %#v',
  },
  'crd.decode-inner-field': {
    minor: 35,
    area: 'CRD',
    what: 'a type error below items, additionalProperties and the like names the field where it is (`…items.maxLength`), not only the field it is below (`…items`)',
  },
  'crd.unrecognized-format': {
    minor: 34,
    area: 'formats',
    what: '`unrecognized format` warnings on create, strings only, with the formats of the compatibility version',
  },
  'cr.number-format-ranges': {
    minor: 36,
    area: 'custom resources',
    what: 'a number is checked against the range of its type and format (`Checked value must be of type integer (default format)`, `… with format int32`; also the maximum, minimum and multipleOf bounds): kube-openapi passes the schema\'s type and format to its number validator',
  },
  'formats.k8s-names': {
    minor: 34,
    area: 'formats',
    what: '`k8s-short-name` and `k8s-long-name` are registered formats (validated from 1.35, with the compatibility version)',
  },
  'metadata.owner-ref-short-texts': {
    minor: 34,
    area: 'metadata',
    what: 'empty owner reference fields say "must not be empty" (before: "uid must not be empty", …)',
  },
  'cr.cel-message-value': {
    minor: 35,
    area: 'custom resources',
    what: 'a failed CEL rule prints the value (scalars) or nothing (objects, arrays) instead of the schema type',
  },
  'crd.unrecognized-format-typed': {
    minor: 36,
    area: 'formats',
    what: 'typed formats: integers must use int32/int64, numbers float/double, any format on other types warns',
  },
  'crd.list-set-warning': {
    minor: 37,
    area: 'CRD',
    what: 'warning for `x-kubernetes-list-type: set` with object or array items (list-set-non-scalar)',
  },
  'metadata.owner-ref-required': {
    minor: 37,
    area: 'metadata',
    what: 'owner reference errors are indexed (`ownerReferences[0].uid`), empty fields Required, a malformed apiVersion "must be <group>/<version> or <version>"',
  },
  'metadata.managed-fields-operation': {
    minor: 37,
    area: 'metadata',
    what: 'embedded managedFields operation: Required when empty, Unsupported value otherwise (before: one Invalid text)',
  },
  'cr.json-values': {
    minor: 34,
    area: 'custom resources',
    what: 'a value that is not a string, number or bool prints as JSON in errors (before: Go %#v, `map[string]interface {}{…}`, and null as "null")',
  },
  'cel.optional-type-name': {
    minor: 31,
    area: 'CEL',
    what: 'cel-go 0.18+: type errors print the optional type as `optional_type(T)` (before: `optional(T)`)',
  },
  'cel.go-0.20': {
    minor: 31,
    area: 'CEL',
    what: 'cel-go 0.20: a `format()` call on a literal string with a literal list is checked when the rule is written (each clause against its argument\'s type, the argument count)',
  },
  'cel.x-text-0.23': {
    minor: 33,
    area: 'custom resources',
    what: "format()'s `%e` writes `1.000000×10⁰⁰` (golang.org/x/text 0.23; before: a narrow no-break space on each side of ×)",
  },
  'cel.go-0.22-runtime': {
    minor: 32,
    area: 'custom resources',
    what: 'cel-go 0.22 at runtime: `indexOf`/`lastIndexOf` with an offset past the end return -1 (before: `index out of range`)',
  },
  'cel.go-0.23': {
    minor: 33,
    area: 'CEL',
    what: "cel-go 0.23: a backtick in a rule is refused as `unsupported syntax: '`'` (before: a `token recognition error` per backtick, the rest parsed without it); a `format()` issue text is printed as it is (before: as a Go format string, a `%` in it as `%!c(MISSING)`)",
  },
  'cel.optional-lists': {
    minor: 33,
    area: 'CEL',
    what: "cel-go 0.23's optional library (the server's, new and stored rules alike): `first()`, `last()`, `optional.unwrap()` and `unwrapOpt()` on lists (before: undeclared)",
  },
  'cel.k8s-equality-cost': {
    minor: 32,
    area: 'CEL',
    what: 'cost estimates: `==` of two Quantity, URL, IP, CIDR or format values costs 1 (a URL: its size), `url()` has the size of its argument (before: such an `==` is costed as an equality of unknown size, over the per-rule limit)',
  },
  'cel.go-0.23-cost': {
    minor: 33,
    area: 'CEL',
    what: "cel-go 0.23 cost estimates: list and map literals carry the sizes of their entries (read by an index, an iteration variable, `+`, `?:`) and dyn() keeps its argument's size (before: the index of a literal is sized by its field path, which names the schema root, and dyn() of a list has an unknown size)",
  },
  'cel.metadata-name-bounds': {
    minor: 37,
    area: 'CEL',
    what: 'cost estimates bound `metadata.name` to 253 and `generateName` to 252 characters (unless the schema declares name, generateName, kind and apiVersion as strings)',
  },
  'cel.go-0.26-runtime': {
    minor: 34,
    area: 'custom resources',
    what: "cel-go 0.26 at runtime: `lastIndexOf` of a string longer than the receiver is -1 (before: `''.lastIndexOf('x')` fails with `index out of range: -1`)",
  },
  'cel.go-0.29': {
    minor: 37,
    area: 'CEL',
    what: 'cel-go 0.29: `duration(int)` no longer declared (a stored rule with it no longer compiles), backtick-escaped field names, a leading-dot name resolves to the global, the global `matches()` costed like the member form',
  },
  'cel.go-0.29-runtime': {
    minor: 37,
    area: 'custom resources',
    what: 'cel-go 0.29 at runtime: startsWith/endsWith cost by the argument, `indexOf`/`lastIndexOf` of an empty string clamp the offset (negative: error), `lists.range` refuses negative and > 1,000,000 sizes',
  },
  'cel.list-adapters': {
    minor: 37,
    area: 'custom resources',
    what: 'set and map lists compare and concatenate by CEL values, every element must match; sets of objects or arrays fail with "listSet operations are only supported on lists of scalar values"',
  },
  'cel.lists-v1': {
    // a library, compared with the compatibility version in code; listed at 1.37 as the new-rule minor (1.38) is not simulated
    minor: 37,
    area: 'CEL',
    what: 'the Kubernetes lists library v1 (`includes`) in rules already stored (new rules can use it from 1.38)',
  },
  'cel.optionals': {
    minor: 28,
    area: 'CEL',
    basis: 'compat',
    what: 'optional types (`?.`, `optional.*`), the quantity library and cross-type numeric comparisons',
  },
  'cel.strings-v2': {
    minor: 29,
    area: 'CEL',
    basis: 'compat',
    what: 'strings extension v2 (`format`, `strings.quote`, `join`), the sets library, compile-time checks of duration/timestamp/regex literals',
  },
  'cel.ip-cidr': {
    minor: 30,
    area: 'CEL',
    basis: 'compat',
    what: 'the IP and CIDR libraries',
  },
  'cel.format-and-escapes': {
    minor: 31,
    area: 'CEL',
    basis: 'compat',
    what: 'the format library; reserved field names reachable as `__name__`',
  },
  'cel.two-var': {
    minor: 32,
    area: 'CEL',
    basis: 'compat',
    what: 'two-variable comprehensions (`all(k, v, …)`, `exists(k, v, …)`, …)',
  },
  'cel.semver': {
    minor: 33,
    area: 'CEL',
    basis: 'compat',
    what: 'the semver library',
  },
  'cel.ext-lists': {
    minor: 34,
    area: 'CEL',
    basis: 'compat',
    what: 'cel-go ext.Lists v3 (`sort`, `sortBy`, …) with its costs',
  },
} as const satisfies Record<string, VersionGate>;

export type GateId = keyof typeof GATES;

/** The minor where the switch `id` takes effect (the compatibility version for `basis: 'compat'`). */
export function since(id: GateId): number {
  return GATES[id].minor;
}

/** Whether the simulated server `v` has the behaviour `id` (server-minor switches). */
export function gated(v: KubeVersion, id: GateId): boolean {
  return atLeast(v, GATES[id].minor);
}
