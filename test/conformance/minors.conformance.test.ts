/**
 * Version-sensitive differential suite: for every Kubernetes minor the harness builds
 * (test/apiserver/minors, `harness.mjs minors`; CRDX_MINORS=1.33,1.37 narrows it), a real
 * apiextensions-apiserver of that minor is started and sent the cases whose outcome depends on the
 * version: CEL libraries in new rules (each one enabled at the minor after it was introduced, the
 * compatibility version being n-1), formats (k8s-short-name, unrecognized-format warnings, typed
 * formats), the CEL failure message rendering, selectableFields, the schema-required message and
 * the cost of rules on metadata.name, the 1.37 warning about sets of objects or arrays, and the
 * owner reference / managedFields texts of 1.37 (CRD metadata, defaults, custom resources).
 *
 * Two things are checked per case and minor:
 *  - the server's answer is the one upstream's sources say for that minor (this proves the harness
 *    really runs that minor, and that our reading of the version switches is right);
 *  - crdx (lintSources / defaultSources with kubeVersion 1.<minor>) gives the same answer: verdict,
 *    causes (reason, field, message), unrecognized-format and list-set warnings. Where crdx says it could not
 *    evaluate a rule (celNotEvaluated) the difference is a declared gap, not a disagreement. A minor
 *    crdx does not simulate (after NEWEST_KUBE_VERSION) is not compared.
 * Known disagreements are listed in KNOWN and must still disagree (once one agrees, remove it).
 * CRDX_MINORS_REPORT=FILE writes every row (minor, case, outcome, both answers) as JSON.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSimulated, type KubeVersion } from '../../src/core/kube-version.js';
import type { Finding } from '../../src/core/types.js';
import { defaultSources } from '../../src/engine/default.js';
import { lintSources } from '../../src/engine/lint.js';
import { sortKeys } from '../../src/core/sort-keys.js';
import { parseFile } from '../../src/manifest/parse.js';
import { cel } from '../helpers/cel.js';
import { decodeCases } from '../helpers/decode-cases.js';
import { CRD_API, goAvailable, selectedMinors, startHarness, waitEstablished, type Harness, type Response } from './harness.js';

const HAVE_GO = goAvailable();
if (!HAVE_GO) console.warn('minors suite skipped: it needs Go on PATH to build the real apiextensions-apiserver (test/apiserver)');

type Obj = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Cases

/** What the server answers to a CRD create, reduced to what the cases compare. */
interface CrdAnswer {
  readonly accepted: boolean;
  /** `reason field: message` of every cause, sorted. */
  readonly causes: readonly string[];
  /** The formats of `unrecognized format "<f>"` warnings, in order. */
  readonly unrecognizedFormats: readonly string[];
  /** The `x-kubernetes-list-type: set for items of type …` warnings (1.37), sorted. */
  readonly listSetWarnings: readonly string[];
}

interface CrAnswer {
  readonly accepted: boolean;
  readonly causes: readonly string[];
  readonly warnings: readonly string[];
}

interface Case {
  readonly id: string;
  /** The version switch the case is about, for the report. */
  readonly about: string;
  readonly crd: Obj;
  /** The server's answer to the CRD for a minor, as upstream's sources say. */
  readonly crdExpect: (minor: number) => {
    accepted: boolean;
    /** The server panics on the request: no answer (the connection is dropped). */
    panics?: true;
    unrecognizedFormats?: readonly string[];
    listSetWarnings?: readonly string[];
    cause?: RegExp;
    /** Every cause, `reason field: message`, sorted. */
    causes?: readonly string[];
    /** Paths (spec.versions[0].x) the created CRD must keep, or must not have (the server dropped them). */
    kept?: readonly string[];
    dropped?: readonly string[];
  };
  /** A custom resource sent (dry run) once the CRD is Established, and the server's answer for a minor. */
  readonly cr?: Obj;
  readonly crExpect?: (minor: number) => { accepted: boolean; causes?: readonly string[] };
}

let caseNo = 0;
/** A CRD with one served version v1 whose spec has `props` (and `spec` extra keys); its own group so that cases never collide. */
function crd(props: Obj, opts: { spec?: Obj; root?: Obj; versionExtra?: Obj; schema?: Obj | null } = {}): Obj {
  const group = `c${++caseNo}.minors.crdx.test`;
  const schema =
    opts.schema === null
      ? undefined
      : (opts.schema ?? {
          openAPIV3Schema: { type: 'object', ...(opts.root ?? {}), properties: { spec: { type: 'object', ...(opts.spec ?? {}), properties: props } } },
        });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `things.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
      versions: [{ name: 'v1', served: true, storage: true, ...(schema ? { schema } : {}), ...(opts.versionExtra ?? {}) }],
    },
  };
}

function cr(c: Obj, spec: Obj, name = 'sample'): Obj {
  const s = c['spec'] as { group: string };
  return { apiVersion: `${s.group}/v1`, kind: 'Thing', metadata: { name, namespace: 'default' }, spec };
}

/** A rule on a string field `s` (maxLength 64, so that cost never decides) and a sample value. */
function stringRuleCase(id: string, about: string, rule: string, since: number, undeclared: RegExp, bad: string): Case {
  const c = crd({ s: { type: 'string', maxLength: 64, 'x-kubernetes-validations': [{ rule }] } });
  return {
    id,
    about,
    crd: c,
    crdExpect: (m) => (m >= since ? { accepted: true } : { accepted: false, cause: undeclared }),
    cr: cr(c, { s: bad }),
    crExpect: (m) => ({ accepted: false, causes: [`FieldValueInvalid spec.s: Invalid value: ${m >= 35 ? JSON.stringify(bad) : '"string"'}: failed rule: ${rule}`] }),
  };
}

const selectable = crd({ color: { type: 'string' } }, { versionExtra: { selectableFields: [{ jsonPath: '.spec.color' }] } });
const selectableBad = crd({ color: { type: 'string' } }, { versionExtra: { selectableFields: [{ jsonPath: '.spec.nope' }] } });
const messages = crd(
  { replicas: { type: 'integer' }, max: { type: 'integer' }, s: { type: 'string', maxLength: 64, 'x-kubernetes-validations': [{ rule: 'self.size() < 5' }] } },
  { spec: { 'x-kubernetes-validations': [{ rule: 'self.replicas <= self.max', message: 'replicas must not exceed max' }] } },
);
const shortName = crd({ s: { type: 'string', format: 'k8s-short-name' } });

const valueRendering = crd({
  o: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'number' }, s: { type: 'string' }, z: { type: 'object', nullable: true } }, enum: [{ a: 1 }] },
  l: { type: 'array', items: { 'x-kubernetes-int-or-string': true }, enum: [[1, 2]] },
  ml: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: { type: 'string' }, v: { type: 'integer' } } } },
  nn: { type: 'string', nullable: true, enum: ['a'] },
});
/** A schema with an embedded resource at spec.e (and, optionally, a default for it). */
const embedded = (dflt?: Obj): Obj => ({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, ...(dflt ? { default: dflt } : {}) } });
const ownerCrd = (() => {
  const c = crd({});
  (c['metadata'] as Obj)['ownerReferences'] = [
    { apiVersion: '', kind: '', name: '', uid: '' },
    { apiVersion: 'a/b/c', kind: 'K', name: 'nn', uid: 'uu' },
    { apiVersion: 'apps/', kind: 'K', name: 'nn', uid: 'uu' },
  ];
  return c;
})();
const ownerCr = crd(embedded());
const ownerDefault = crd(embedded({ apiVersion: 'v1', kind: 'K', metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'x' }] } }));
const SET_WARNING = (t: string) => `x-kubernetes-list-type: set for items of type "${t}" is not supported by server-side apply or CEL validation rules`;
/** An empty owner reference field: Required and indexed from 1.37, Invalid "" without index before (naming the field before 1.34). */
const ownerEmpty = (m: number, prefix: string, i: number, f: string) =>
  m >= 37
    ? `FieldValueRequired ${prefix}metadata.ownerReferences[${i}].${f}: Required value: must not be empty`
    : `FieldValueInvalid ${prefix}metadata.ownerReferences.${f}: Invalid value: "": ${f === 'apiVersion' ? 'version ' : m >= 34 ? '' : `${f} `}must not be empty`;
const ownerBadVersion = (m: number, i: number, v: string) =>
  m >= 37 ? `FieldValueInvalid metadata.ownerReferences[${i}].apiVersion: Invalid value: "${v}": must be <group>/<version> or <version>` : `FieldValueInvalid metadata.ownerReferences.apiVersion: Invalid value: "${v}": version must not be empty`;

const CASES: readonly Case[] = [
  {
    id: 'value-rendering',
    about: 'field.Error values: %#v for maps and lists, "null" for null up to 1.33; JSON from 1.34',
    crd: valueRendering,
    crdExpect: () => ({ accepted: true }),
    cr: cr(valueRendering, { o: { a: 2, b: 1.5, s: 'x"y', z: null }, l: [3, 'x'], ml: [{ k: 'a', v: 1 }, { k: 'a', v: 2 }], nn: null }),
    crExpect: (m) => ({
      accepted: false,
      causes: (m <= 33
        ? [
            'FieldValueNotSupported spec.o: Unsupported value: map[string]interface {}{"a":2, "b":1.5, "s":"x\\"y", "z":interface {}(nil)}: supported values: "{\\"a\\":1}"',
            'FieldValueNotSupported spec.l: Unsupported value: []interface {}{3, "x"}: supported values: "[1,2]"',
            'FieldValueDuplicate spec.ml[1]: Duplicate value: map[string]interface {}{"k":"a"}',
            'FieldValueNotSupported spec.nn: Unsupported value: "null": supported values: "a"',
          ]
        : [
            'FieldValueNotSupported spec.o: Unsupported value: {"a":2,"b":1.5,"s":"x\\"y","z":null}: supported values: "{\\"a\\":1}"',
            'FieldValueNotSupported spec.l: Unsupported value: [3,"x"]: supported values: "[1,2]"',
            'FieldValueDuplicate spec.ml[1]: Duplicate value: {"k":"a"}',
            'FieldValueNotSupported spec.nn: Unsupported value: null: supported values: "a"',
          ]
      ).sort(),
    }),
  },
  stringRuleCase('cel-ip', 'IP/CIDR libraries: introduced 1.30, in new rules from 1.31', 'ip(self).family() == 4', 31, /undeclared reference to 'ip'/, '::1'),
  stringRuleCase('cel-format', 'format library: introduced 1.31, in new rules from 1.32', '!format.dns1123Label().validate(self).hasValue()', 32, /undeclared reference to 'format'/, 'Bad_Label'),
  stringRuleCase('cel-semver', 'semver library: introduced 1.33, in new rules from 1.34', 'isSemver(self)', 34, /undeclared reference to 'isSemver'/, '1.2'),
  (() => {
    const c = crd({
      m: { type: 'object', maxProperties: 8, additionalProperties: { type: 'string', maxLength: 8 }, 'x-kubernetes-validations': [{ rule: 'self.all(k, v, k != v)' }] },
    });
    return {
      id: 'cel-two-var',
      about: 'two-variable comprehensions: introduced 1.32, in new rules from 1.33',
      crd: c,
      crdExpect: (m: number) => (m >= 33 ? { accepted: true } : { accepted: false, cause: /undeclared reference to 'all'/ }),
      cr: cr(c, { m: { a: 'a' } }),
      crExpect: (m: number) => ({ accepted: false, causes: [`FieldValueInvalid spec.m: Invalid value: ${m >= 35 ? '' : '"object": '}failed rule: self.all(k, v, k != v)`] }),
    };
  })(),
  (() => {
    const c = crd({
      l: { type: 'array', maxItems: 8, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.sort() == self' }] },
    });
    return {
      id: 'cel-ext-lists',
      about: 'cel-go ext.Lists (sort, …): introduced 1.34, in new rules from 1.35',
      crd: c,
      crdExpect: (m: number) => (m >= 35 ? { accepted: true } : { accepted: false, cause: /undeclared reference to 'sort'/ }),
      cr: cr(c, { l: [2, 1] }),
      crExpect: () => ({ accepted: false, causes: ['FieldValueInvalid spec.l: Invalid value: failed rule: self.sort() == self'] }),
    };
  })(),
  {
    id: 'cel-message-rendering',
    about: 'CEL failure rendering: the value (scalars) or nothing (objects) from 1.35, the type name before',
    crd: messages,
    crdExpect: () => ({ accepted: true }),
    cr: cr(messages, { replicas: 5, max: 3, s: 'abcdefg' }),
    crExpect: (m) => ({
      accepted: false,
      causes: [
        `FieldValueInvalid spec.s: Invalid value: ${m >= 35 ? '"abcdefg"' : '"string"'}: failed rule: self.size() < 5`,
        `FieldValueInvalid spec: Invalid value: ${m >= 35 ? '' : '"object": '}replicas must not exceed max`,
      ].sort(),
    }),
  },
  {
    id: 'format-k8s-short-name',
    about: 'k8s-short-name: a known format at compatibility version 1.34 (so from 1.35); warnings from 1.34',
    crd: shortName,
    crdExpect: (m) => ({ accepted: true, unrecognizedFormats: m === 34 ? ['k8s-short-name'] : [] }),
    cr: cr(shortName, { s: 'Bad_Name' }),
    crExpect: (m) =>
      m >= 35
        ? { accepted: false, causes: ['FieldValueTypeInvalid spec.s: Invalid value: "Bad_Name": spec.s in body must be of type k8s-short-name: "Bad_Name"'] }
        : { accepted: true },
  },
  {
    id: 'format-unknown-string',
    about: 'unrecognized-format warnings on strings from 1.34',
    crd: crd({ s: { type: 'string', format: 'no-such-format' } }),
    crdExpect: (m) => ({ accepted: true, unrecognizedFormats: m >= 34 ? ['no-such-format'] : [] }),
  },
  {
    id: 'format-on-integer',
    about: 'formats on integers: warned from 1.36 (typed formats), not before',
    crd: crd({ i: { type: 'integer', format: 'no-such-format' } }),
    crdExpect: (m) => ({ accepted: true, unrecognizedFormats: m >= 36 ? ['no-such-format'] : [] }),
  },
  {
    id: 'format-string-on-integer',
    about: 'a string format on an integer: warned from 1.36',
    crd: crd({ i: { type: 'integer', format: 'uuid' } }),
    crdExpect: (m) => ({ accepted: true, unrecognizedFormats: m >= 36 ? ['uuid'] : [] }),
  },
  {
    id: 'selectable-fields',
    about: 'selectableFields: alpha and off by default in 1.30 (dropped on create), beta and on in 1.31, GA 1.32',
    crd: selectable,
    crdExpect: (m) => ({ accepted: true, kept: m >= 31 ? ['spec.versions[0].selectableFields'] : [], dropped: m >= 31 ? [] : ['spec.versions[0].selectableFields'] }),
  },
  {
    id: 'selectable-fields-missing',
    about: 'selectableFields naming a field the schema lacks: refused from 1.31 (1.30 drops them)',
    crd: selectableBad,
    crdExpect: (m) => (m >= 31 ? { accepted: false, cause: /selectableFields\[0\]\.jsonPath/ } : { accepted: true, dropped: ['spec.versions[0].selectableFields'] }),
  },
  {
    id: 'selectable-fields-nil-schema',
    about: 'selectableFields next to a schema that is not structural: resolved in a nil schema, the server panics from 1.31 (1.30 drops them)',
    crd: crd({ color: { type: 'string' }, other: { $ref: '#/definitions/other' } }, { versionExtra: { selectableFields: [{ jsonPath: '.spec.color' }] } }),
    crdExpect: (m) => (m >= 31 ? { accepted: false, panics: true } : { accepted: false, cause: /\$ref is not supported/ }),
  },
  {
    id: 'cel-type-through-untyped-items',
    about: 'rules below the items of a `type: string` node with items, under a node with rules: the server reads the nil CEL type of those items and panics',
    crd: crd(
      { hosts: { type: 'string', items: { type: 'object', properties: { name: { type: 'string', 'x-kubernetes-validations': [{ rule: "self != ''" }] } } } } },
      { spec: { 'x-kubernetes-validations': [{ rule: 'has(self.hosts)' }] } },
    ),
    crdExpect: () => ({ accepted: false, panics: true }),
  },
  {
    id: 'schema-required',
    about: 'a v1 version without a schema: the message changed in 1.34',
    crd: crd({}, { schema: null }),
    crdExpect: () => ({ accepted: false, cause: /spec\.versions\[0\]\.schema\.openAPIV3Schema/ }),
  },
  {
    id: 'cost-metadata-name',
    about: 'metadata.name bounded to 253 bytes in cost estimates from 1.37',
    crd: crd({ s: { type: 'string' } }, { root: { 'x-kubernetes-validations': [{ rule: "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$') && self.metadata.name.split('-').all(p, p.matches('^[a-z0-9]+$'))" }] } }),
    crdExpect: (m) => (m >= 37 ? { accepted: true } : { accepted: false, cause: /cost/ }),
  },
  (() => {
    // the quirk: a root declaring kind, apiVersion and metadata.name/generateName as strings keeps its own (unbounded) sizes
    const rule = 'self.metadata.name.contains(self.metadata.name) && self.metadata.generateName.contains(self.metadata.generateName)';
    const meta = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
    const c = crd({ s: { type: 'string' } }, { root: { 'x-kubernetes-validations': [{ rule }] } });
    const root = (((c['spec'] as Obj)['versions'] as Obj[])[0]!['schema'] as Obj)['openAPIV3Schema'] as { properties: Obj };
    Object.assign(root.properties, { kind: { type: 'string' }, apiVersion: { type: 'string' }, metadata: meta });
    return {
      id: 'cost-metadata-name-declared',
      about: 'metadata.name/generateName declared as strings with kind and apiVersion: not capped in 1.37 either',
      crd: c,
      crdExpect: () => ({ accepted: false, cause: /cost/ }),
    };
  })(),
  {
    id: 'cost-embedded-metadata-name',
    about: 'metadata.name/generateName of an embedded resource bounded (253/252) in cost estimates from 1.37',
    crd: crd({
      tmpl: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
        'x-kubernetes-validations': [{ rule: 'self.metadata.name.contains(self.metadata.name) && self.metadata.generateName.contains(self.metadata.generateName)' }],
      },
    }),
    crdExpect: (m) => (m >= 37 ? { accepted: true } : { accepted: false, cause: /cost/ }),
  },
  (() => {
    const c = crd({ x: { type: 'integer' } }, { spec: { 'x-kubernetes-validations': [{ rule: 'self.`x` > 0' }] } });
    return {
      id: 'cel-ident-escape',
      about: "backtick-escaped field names: cel-go 0.29 (1.37); before, unsupported syntax: '`' (cel-go 0.23, 1.33) or a token recognition error per backtick",
      crd: c,
      crdExpect: (m: number) =>
        m >= 37
          ? { accepted: true }
          : { accepted: false, cause: m >= 33 ? /<input>:1:6: unsupported syntax: '`'/ : /<input>:1:6: Syntax error: token recognition error at: '`'[^]*<input>:1:8: Syntax error: token recognition error at: '`'/ },
      cr: cr(c, { x: 0 }),
      crExpect: () => ({ accepted: false, causes: ['FieldValueInvalid spec: Invalid value: failed rule: self.`x` > 0'] }),
    };
  })(),
  {
    id: 'cel-ident-escape-dash',
    about: 'an escaped name is not the escaped property name (foo-bar is foo__dash__bar): undefined field from 1.37',
    crd: crd({ 'foo-bar': { type: 'integer' } }, { spec: { 'x-kubernetes-validations': [{ rule: 'has(self.`foo-bar`)' }] } }),
    crdExpect: (m) => ({ accepted: false, cause: m >= 37 ? /undefined field 'foo-bar'/ : m >= 33 ? /unsupported syntax: '`'/ : /<input>:1:14: invalid argument to has\(\) macro/ }),
  },
  {
    id: 'cel-leading-dot',
    about: 'a leading-dot identifier resolves to the global (not a comprehension variable) from 1.37',
    crd: crd({ l: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 } } }, { spec: { 'x-kubernetes-validations': [{ rule: 'self.l.exists(self, .self.l.size() > 0)' }] } }),
    crdExpect: (m) => (m >= 37 ? { accepted: true } : { accepted: false, cause: /type 'string' does not support field selection/ }),
  },
  (() => {
    const c = crd({ x: { type: 'integer' } }, { spec: { 'x-kubernetes-validations': [{ rule: "duration(self.x) < duration('1h')" }] } });
    return {
      id: 'cel-duration-int',
      about: 'duration(int): declared (failing at runtime) until 1.36, gone in cel-go 0.29 (1.37)',
      crd: c,
      crdExpect: (m: number) => (m >= 37 ? { accepted: false, cause: /found no matching overload for 'duration' applied to '\(int\)'/ } : { accepted: true }),
      cr: cr(c, { x: 5 }),
      crExpect: () => ({
        accepted: false,
        causes: ["FieldValueInvalid spec: Invalid value: \"object\": type conversion error from 'int' to 'google.protobuf.Duration' evaluating rule: duration(self.x) < duration('1h')"],
      }),
    };
  })(),
  {
    id: 'cel-duration-int-literal',
    about: 'duration(<int literal>): the literal validator refuses it until 1.36, no overload from 1.37',
    crd: crd({ x: { type: 'integer' } }, { spec: { 'x-kubernetes-validations': [{ rule: "duration(5) < duration('1h')" }] } }),
    crdExpect: (m) => ({ accepted: false, cause: m >= 37 ? /<input>:1:9: found no matching overload for 'duration'/ : /<input>:1:10: invalid duration argument/ }),
  },
  {
    id: 'cel-lists-includes',
    about: 'lists v1 includes(): in the stored-expressions environment of 1.37 only, so new rules never have it',
    crd: crd({ l: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 } } }, { spec: { 'x-kubernetes-validations': [{ rule: "self.l.includes('a')" }] } }),
    crdExpect: () => ({ accepted: false, cause: /undeclared reference to 'includes'/ }),
  },
  {
    id: 'cost-global-matches',
    about: 'the global matches(s, re) costed as s.matches(re) from 1.37 (a flat 1 before)',
    crd: crd({ l: { type: 'array', maxItems: 100, items: { type: 'string', 'x-kubernetes-validations': [{ rule: "matches(self, '^[a-z]+$')" }] } } }),
    crdExpect: (m) => (m >= 37 ? { accepted: false, cause: /factor of 6\.3x/ } : { accepted: true }),
  },
  (() => {
    const rules = [
      'self.nums == [1.0, 2.0]',
      'self.nums == dyn([1, 2])',
      'self.ints == [1, 1]',
      'self.objs == self.objs',
      'self.ml == [self.ml[0], self.ml[0]]',
      '(self.nums + [1.0]).size() == 2',
      '(self.ints + [1]).size() == 2',
    ];
    const c = crd(
      {
        nums: { type: 'array', maxItems: 4, items: { type: 'number' }, 'x-kubernetes-list-type': 'set' },
        ints: { type: 'array', maxItems: 4, items: { type: 'integer' }, 'x-kubernetes-list-type': 'set' },
        objs: { type: 'array', maxItems: 4, items: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string', maxLength: 5 } } }, 'x-kubernetes-list-type': 'set' },
        ml: { type: 'array', maxItems: 4, items: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 5 } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
      },
      { spec: { 'x-kubernetes-validations': rules.map((rule) => ({ rule })) } },
    );
    const failed = (r: string, m: number) => `FieldValueInvalid spec: Invalid value: ${m >= 35 ? '' : '"object": '}failed rule: ${r}`;
    return {
      id: 'cel-list-adapters',
      about: 'set and map list equality and union: by CEL values, every element counted, sets of objects an error from 1.37',
      crd: c,
      crdExpect: () => ({ accepted: true }),
      cr: cr(c, { nums: [1, 2], ints: [1, 2], objs: [{ a: 'x' }], ml: [{ name: 'a' }, { name: 'b' }] }),
      crExpect: (m: number) =>
        m >= 37
          ? {
              accepted: false,
              causes: [
                failed(rules[1]!, m),
                failed(rules[2]!, m),
                failed(rules[4]!, m),
                `FieldValueInvalid spec: Invalid value: "object": listSet operations are only supported on lists of scalar values evaluating rule: ${rules[3]}`,
              ].sort(),
            }
          : m >= 35
            ? {
                accepted: false,
                causes: [
                  failed(rules[0]!, m),
                  failed(rules[5]!, m),
                  `FieldValueInvalid spec: Invalid value: "object": internal error: runtime error: hash of unhashable type map[string]interface {} evaluating rule: ${rules[3]}`,
                ].sort(),
              }
            : { accepted: false },
    };
  })(),
  (() => {
    const rules = ['self.l.first().orValue(0) == 1', 'self.l.last().hasValue()', 'optional.unwrap([self.l.first()]).size() == 1'];
    const c = crd({ l: { type: 'array', maxItems: 4, items: { type: 'integer' } } }, { spec: { 'x-kubernetes-validations': rules.map((rule) => ({ rule })) } });
    return {
      id: 'cel-optional-lists',
      about: "first(), last(), optional.unwrap() and unwrapOpt(): cel-go 0.23's optional library, from 1.33",
      crd: c,
      crdExpect: (m: number) => (m >= 33 ? { accepted: true } : { accepted: false, cause: /undeclared reference to 'first'/ }),
      cr: cr(c, { l: [2] }),
      crExpect: (m: number) => (m >= 33 ? { accepted: false, causes: [`FieldValueInvalid spec: Invalid value: ${m >= 35 ? '' : '"object": '}failed rule: ${rules[0]}`] } : { accepted: false }),
    };
  })(),
  (() => {
    const rule = "self.s.lastIndexOf('x') == -1";
    const c = crd({ s: { type: 'string', maxLength: 10 } }, { spec: { 'x-kubernetes-validations': [{ rule }] } });
    return {
      id: 'cel-last-index-of-empty',
      about: "lastIndexOf on an empty receiver: -1 from 1.34 (cel-go 0.26), `index out of range: -1` before",
      crd: c,
      crdExpect: () => ({ accepted: true }),
      cr: cr(c, { s: '' }),
      crExpect: (m: number) => (m >= 34 ? { accepted: true } : { accepted: false, causes: [`FieldValueInvalid spec: Invalid value: "object": index out of range: -1 evaluating rule: ${rule}`] }),
    };
  })(),
  {
    id: 'list-set-non-scalar',
    about: 'x-kubernetes-list-type: set of objects or arrays: accepted, warned from 1.37 (once per item type, sorted)',
    crd: crd({
      objs: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-map-type': 'atomic' } },
      more: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-map-type': 'atomic' } },
      arrs: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'array', items: { type: 'string' } } },
      s: { type: 'string', format: 'no-such-format' },
    }),
    crdExpect: (m) => ({ accepted: true, unrecognizedFormats: m >= 34 ? ['no-such-format'] : [], listSetWarnings: m >= 37 ? [SET_WARNING('array'), SET_WARNING('object')] : [] }),
  },
  {
    id: 'owner-references-crd',
    about: "the CRD's own ownerReferences: indexed paths, Required and a new apiVersion text from 1.37",
    crd: ownerCrd,
    crdExpect: (m) => ({
      accepted: false,
      causes: [
        ownerEmpty(m, '', 0, 'apiVersion'),
        ownerEmpty(m, '', 0, 'kind'),
        ownerEmpty(m, '', 0, 'name'),
        ownerEmpty(m, '', 0, 'uid'),
        ownerBadVersion(m, 1, 'a/b/c'),
        ownerBadVersion(m, 2, 'apps/'),
      ].sort(),
    }),
  },
  {
    id: 'owner-references-default',
    about: 'an embedded resource default with an incomplete owner reference: the texts inside "must result in valid metadata" (1.37)',
    crd: ownerDefault,
    crdExpect: (m) => ({
      accepted: false,
      causes: [
        `${ownerEmpty(m, 'spec.validation.openAPIV3Schema.properties[spec].properties[e].default.', 0, 'uid')}`,
      ],
    }),
  },
  {
    id: 'owner-references-cr',
    about: 'custom resource ownerReferences and embedded managedFields operations: new types and texts from 1.37',
    crd: ownerCr,
    crdExpect: () => ({ accepted: true }),
    cr: {
      ...cr(ownerCr, { e: { apiVersion: 'v1', kind: 'K', metadata: { managedFields: [{ manager: 'm', operation: 'Foo' }, { manager: 'm' }] } } }),
      metadata: { name: 'sample', namespace: 'default', ownerReferences: [{ apiVersion: 'a/b/c', kind: 'K', name: 'nn', uid: '' }] },
    },
    crExpect: (m) => ({
      accepted: false,
      causes: [
        ownerBadVersion(m, 0, 'a/b/c'),
        ownerEmpty(m, '', 0, 'uid'),
        m >= 37
          ? 'FieldValueNotSupported spec.e.metadata.managedFields[0].operation: Unsupported value: "Foo": supported values: "Apply", "Update"'
          : 'FieldValueInvalid spec.e.metadata.managedFields[0].operation: Invalid value: "Foo": must be `Apply` or `Update`',
        m >= 37
          ? 'FieldValueRequired spec.e.metadata.managedFields[1].operation: Required value: must not be empty'
          : 'FieldValueInvalid spec.e.metadata.managedFields[1].operation: Invalid value: "": must be `Apply` or `Update`',
      ].sort(),
    }),
  },
];

/** Disagreements between crdx and the server found by this suite, by case, part and minors. They must still disagree. */
interface Known {
  readonly case: string;
  readonly part: 'crd' | 'cr';
  readonly when: (minor: number) => boolean;
  readonly why: string;
}
const KNOWN: readonly Known[] = [];
const knownFor = (minor: number, id: string, part: 'crd' | 'cr') => KNOWN.find((k) => k.case === id && k.part === part && k.when(minor));

// ---------------------------------------------------------------------------------------------
// Answers

// a non-nil pointer in a %#v struct prints the server process's address: crdx writes 0xc000000000
const cause = (x: { reason: string; field: string; message: string }) => `${x.reason} ${x.field}: ${x.message.replace(/\)\(0x[0-9a-f]+\)/g, ')(0xc000000000)')}`;
const listSetOf = (texts: readonly string[]) => texts.filter((t) => t.startsWith('x-kubernetes-list-type: set for items')).sort();
const formatsOf = (texts: readonly string[]) => texts.flatMap((t) => [.../unrecognized format "((?:[^"\\]|\\.)*)"/.exec(t)?.slice(1, 2) ?? []]);

/** The server panicked on the request: no status, no causes. */
const NO_ANSWER: CrdAnswer = { accepted: false, causes: ['no answer'], unrecognizedFormats: [], listSetWarnings: [] };

function serverCrd(r: Response | undefined): CrdAnswer {
  if (r === undefined) return NO_ANSWER;
  return {
    accepted: r.status === 200 || r.status === 201,
    causes: ((r.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[]).map(cause).sort(),
    unrecognizedFormats: formatsOf(r.warnings),
    listSetWarnings: listSetOf(r.warnings),
  };
}

function serverCr(r: Response): CrAnswer {
  return {
    accepted: r.status === 200 || r.status === 201,
    causes: ((r.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[]).map(cause).sort(),
    warnings: r.warnings,
  };
}

function findingCause(f: Finding): string {
  return f.server ? cause(f.server) : `${f.ruleId}: ${f.message}`;
}

function crdxCrd(c: Case, kube: KubeVersion): CrdAnswer {
  const res = lintSources([{ path: `${c.id}.crd.yaml`, text: JSON.stringify(c.crd) }], { kubeVersion: kube, cel });
  const errors = res.findings.filter((f) => f.severity === 'error');
  // crdx says the server panics on it (a finding with `aborted`)
  if (res.findings.some((f) => f.aborted !== undefined)) return NO_ANSWER;
  return {
    accepted: errors.length === 0,
    causes: [...new Set(errors.map(findingCause))].sort(),
    unrecognizedFormats: formatsOf(res.findings.filter((f) => f.ruleId === 'unrecognized-format').map((f) => f.message)),
    listSetWarnings: listSetOf(res.findings.filter((f) => f.ruleId === 'list-set-non-scalar').map((f) => f.message)),
  };
}

function crdxCr(c: Case, kube: KubeVersion): CrAnswer & { celNotEvaluated: boolean } {
  const run = defaultSources([{ path: `${c.id}.cr.yaml`, text: JSON.stringify(c.cr) }], [{ path: `${c.id}.crd.yaml`, text: JSON.stringify(c.crd) }], { kubeVersion: kube, cel });
  const o = run.objects[0];
  if (!o) return { accepted: false, causes: [`no object: ${JSON.stringify(run.unmatched.map((u) => u.message))}`], warnings: [], celNotEvaluated: false };
  return {
    accepted: !o.rejected,
    causes: [...new Set(o.findings.filter((f) => f.severity === 'error').map(findingCause))].sort(),
    warnings: o.result.warnings.map((w) => w.text),
    celNotEvaluated: o.result.celNotEvaluated,
  };
}

/** lint of the CRD and its object in one input (both created now): the object's findings, which must be crd-rejected's alone. */
function crdxCrOfRefusedCrd(c: Case, kube: KubeVersion): string[] {
  const text = `${JSON.stringify(c.crd)}\n---\n${JSON.stringify(c.cr)}\n`;
  const res = lintSources([{ path: `${c.id}.yaml`, text }], { kubeVersion: kube, cel });
  return res.findings.filter((f) => f.document === 1).map((f) => (f.messageId === 'crdRejected' ? 'crd-rejected' : `${f.ruleId}/${f.messageId}: ${f.message}`));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Outcome = 'agree' | 'disagree' | 'declared gap' | 'not simulated';
interface Row {
  minor: string;
  case: string;
  part: 'crd' | 'cr';
  outcome: Outcome;
  server: unknown;
  crdx: unknown;
  /** Why the disagreement is known (KNOWN). */
  known?: string;
}
const rows: Row[] = [];

function record(minor: number, c: Case, part: 'crd' | 'cr', outcome: Outcome, server: unknown, crdx: unknown): void {
  const known = knownFor(minor, c.id, part);
  rows.push({ minor: `1.${minor}`, case: c.id, part, outcome, server, crdx, ...(known ? { known: known.why } : {}) });
  const both = `1.${minor} ${c.id} (${part})\n--- server: ${JSON.stringify(server)}\n--- crdx:   ${JSON.stringify(crdx)}`;
  if (outcome === 'not simulated' || outcome === 'declared gap') return;
  // soft: a crdx difference on the CRD must not keep the custom resource from being compared
  if (known) expect.soft(outcome, `${both}\na known disagreement (${known.why}) now agrees: narrow or remove it in KNOWN`).toBe('disagree');
  else expect.soft(outcome, both).toBe('agree');
}

// ---------------------------------------------------------------------------------------------

const MINORS = HAVE_GO ? selectedMinors() : [];

afterAll(() => {
  const tally = new Map<string, Record<Outcome, number>>();
  for (const r of rows) {
    const t = tally.get(r.minor) ?? { agree: 0, disagree: 0, 'declared gap': 0, 'not simulated': 0 };
    t[r.outcome]++;
    tally.set(r.minor, t);
  }
  for (const [m, t] of tally)
    console.log(`minors tally ${m}: ${t.agree} agree, ${t.disagree} disagree, ${t['declared gap']} declared gaps, ${t['not simulated']} not simulated (of ${Object.values(t).reduce((a, b) => a + b, 0)})`);
  for (const r of rows.filter((x) => x.outcome === 'disagree')) console.log(`minors disagreement: ${r.minor} ${r.case} (${r.part})\n  server: ${JSON.stringify(r.server)}\n  crdx:   ${JSON.stringify(r.crdx)}`);
  const out = process.env['CRDX_MINORS_REPORT'];
  if (out) writeFileSync(out, JSON.stringify(rows, null, 1) + '\n');
});

describe.skipIf(!HAVE_GO)('version-sensitive cases agree with real apiservers of every minor', () => {
  for (const minor of MINORS) {
    describe(`Kubernetes 1.${minor}`, () => {
      const kube: KubeVersion = { major: 1, minor };
      const simulated = isSimulated(kube);
      let h: Harness;
      let started = 0;
      let ready = 0;
      beforeAll(async () => {
        started = Date.now();
        h = await startHarness({ minor });
        ready = Date.now();
      }, 1_800_000);
      afterAll(async () => {
        await h?.stop();
        if (ready) console.log(`minors timing 1.${minor}: build check and start ${((ready - started) / 1000).toFixed(1)}s, cases and stop ${((Date.now() - ready) / 1000).toFixed(1)}s`);
      });

      it('serves /version of that minor', async () => {
        const r = await h.request('GET', '/version');
        expect(r.status).toBe(200);
        expect(r.body.gitVersion).toMatch(new RegExp(`^v1\\.${minor}\\.\\d+$`));
        expect(r.body.minor).toBe(String(minor));
      });

      // the decoder's answers (test/helpers/decode-cases.ts, recorded from 1.37) at every minor:
      // the status, and the 400's message or the 422's causes, exactly as crdx gives them
      for (const d of decodeCases) {
        it(`decode: ${d.name}`, async () => {
          const file = { path: 'crd.yaml', text: d.text };
          const r = await h.request('POST', `${CRD_API}?fieldValidation=Strict&dryRun=All`, sortKeys(parseFile(file)[0]!.manifests[0]!.value));
          const errors = lintSources([file], { kubeVersion: kube, cel, fieldValidation: 'Strict' }).findings.filter((f) => f.severity === 'error');
          const ours =
            errors.length === 0
              ? { status: 201 }
              : errors.some((f) => f.ruleId === 'crd-decode')
                ? { status: 400, message: [...new Set(errors.map((f) => f.response?.message))].join('\n') }
                : { status: 422, causes: [...new Set(errors.map(findingCause))].sort() };
          const theirs =
            r.status === 201 || r.status === 200
              ? { status: 201 }
              : r.status === 400
                ? { status: 400, message: String(r.body?.message ?? '') }
                : { status: r.status, causes: serverCrd(r).causes };
          expect(ours, `1.${minor} decode: ${d.name}`).toEqual(theirs);
        });
      }

      for (const c of CASES) {
        it(`${c.id}: ${c.about}`, async () => {
          // the CRD: really created when a custom resource follows, else a dry run
          const name = (c.crd['metadata'] as { name: string }).name;
          // a dropped connection is the server's panic: no answer
          const r = await h.request('POST', `${CRD_API}?fieldValidation=Strict${c.cr ? '' : '&dryRun=All'}`, c.crd).catch((e: unknown) => {
            if (!/socket hang up|ECONNRESET/.test(String(e))) throw e;
            return undefined;
          });
          const server = serverCrd(r);
          const want = c.crdExpect(minor);
          expect(r === undefined, `1.${minor} ${c.id}: ${r ? `answered ${r.status}` : 'no answer'}`).toBe(want.panics === true);
          expect(server.accepted, `1.${minor} ${c.id}: server answered ${r?.status} ${JSON.stringify(r?.body?.message ?? '')}`).toBe(want.accepted);
          if (want.cause) expect(server.causes.join('\n')).toMatch(want.cause);
          if (want.causes) expect(server.causes).toEqual(want.causes);
          if (want.listSetWarnings) expect(server.listSetWarnings, `warnings: ${JSON.stringify(r?.warnings)}`).toEqual(want.listSetWarnings);
          if (want.unrecognizedFormats) expect(server.unrecognizedFormats, `warnings: ${JSON.stringify(r?.warnings)}`).toEqual(want.unrecognizedFormats);
          const v0 = (r?.body?.spec?.versions?.[0] ?? {}) as Obj;
          for (const p of want.kept ?? []) expect(v0, p).toHaveProperty(p.replace('spec.versions[0].', ''));
          for (const p of want.dropped ?? []) expect(v0, p).not.toHaveProperty(p.replace('spec.versions[0].', ''));

          if (!simulated) record(minor, c, 'crd', 'not simulated', server, undefined);
          else {
            const ours = crdxCrd(c, kube);
            const agree = ours.accepted === server.accepted && same(ours.unrecognizedFormats, server.unrecognizedFormats) && same(ours.listSetWarnings, server.listSetWarnings) && (server.accepted || same(ours.causes, server.causes));
            record(minor, c, 'crd', agree ? 'agree' : 'disagree', server, ours);
          }

          if (!c.cr) return;
          if (!server.accepted) {
            // the kind of a refused CRD is never served: the create of its object finds no resource
            const res = await h.request('POST', `/apis/${c.cr['apiVersion'] as string}/namespaces/default/things?dryRun=All&fieldValidation=Strict`, c.cr);
            expect(res.status, `1.${minor} ${c.id} CR of a refused CRD: server answered ${res.status}`).toBe(404);
            if (!simulated) return;
            const ours = crdxCrOfRefusedCrd(c, kube);
            record(minor, c, 'cr', same(ours, ['crd-rejected']) ? 'agree' : 'disagree', { accepted: false, causes: ['404 NotFound'], warnings: [] }, { accepted: false, causes: ours, warnings: [] });
            return;
          }
          await waitEstablished(h, name, 60_000);
          const s = c.cr['apiVersion'] as string;
          const res = await h.request('POST', `/apis/${s}/namespaces/default/things?dryRun=All&fieldValidation=Strict`, c.cr);
          const theirs = serverCr(res);
          const wantCr = c.crExpect!(minor);
          expect(theirs.accepted, `1.${minor} ${c.id} CR: server answered ${res.status} ${JSON.stringify(res.body?.message ?? '')}`).toBe(wantCr.accepted);
          if (wantCr.causes) expect(theirs.causes).toEqual(wantCr.causes);

          if (!simulated) {
            record(minor, c, 'cr', 'not simulated', theirs, undefined);
            return;
          }
          const ours = crdxCr(c, kube);
          const agree = ours.accepted === theirs.accepted && same(ours.causes, theirs.causes) && same(ours.warnings, theirs.warnings);
          record(minor, c, 'cr', agree ? 'agree' : ours.celNotEvaluated ? 'declared gap' : 'disagree', theirs, ours);
        });
      }
    });
  }
});
