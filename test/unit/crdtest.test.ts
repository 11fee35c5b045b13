/**
 * `kubectl crdx test` as a library: reading test files (errors with positions), running cases
 * (a wrong expectation fails, at its position), the output formats, and the shipped JSON Schema
 * agreeing with the reader on the fixtures and on malformed files.
 */
import { Ajv } from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSimulated } from '../../src/core/kube-version.js';
import { parseTestFile } from '../../src/crdtest/parse.js';
import { runTestFile, type LoadedFiles } from '../../src/crdtest/run.js';
import { summarize, type TestRun } from '../../src/crdtest/types.js';
import { formatJson, formatJunit, formatTap, formatText } from '../../src/formatters/crdtest.js';
import { PLAIN_STYLE } from '../../src/formatters/types.js';
import type { SourceFile } from '../../src/manifest/parse.js';
import { cel } from '../helpers/cel.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'schema', 'crdx-test.schema.json'), 'utf8'));

const CRD = `
  - apiVersion: apiextensions.k8s.io/v1
    kind: CustomResourceDefinition
    metadata: {name: things.t.example.com}
    spec:
      group: t.example.com
      scope: Namespaced
      names: {plural: things, singular: thing, kind: Thing, listKind: ThingList}
      versions:
        - name: v1
          served: true
          storage: true
          subresources: {status: {}, scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}}
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  x-kubernetes-validations:
                    - {rule: "self.replicas <= 5", message: at most 5 replicas}
                  properties:
                    replicas: {type: integer, default: 1, maximum: 10}
                    mode: {type: string, enum: [a, b]}
                status:
                  type: object
                  properties:
                    replicas: {type: integer}
`;

const NONE: LoadedFiles = { crdFiles: new Map(), objectFiles: new Map(), problems: new Map() };

function file(cases: string, crds = CRD): SourceFile {
  return { path: 't.crdx-test.yaml', text: `crds:${crds}cases:\n${cases}` };
}

const thing = (spec: string, name = 'x') => `{apiVersion: t.example.com/v1, kind: Thing, metadata: {name: ${name}}, spec: ${spec}}`;

function run(src: SourceFile, loaded: LoadedFiles = NONE, filter?: string) {
  const p = parseTestFile(src);
  expect(p.errors).toEqual([]);
  // Warn: the cases below check how unknown fields are pruned and warned about (strict: --validate tests)
  return runTestFile(p.file!, loaded, { cel, fieldValidation: 'Warn', ...(filter !== undefined ? { filter } : {}) });
}

function lineOf(src: SourceFile, needle: string): number {
  return src.text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}

describe('reading a test file', () => {
  const bad: { name: string; text: string; message: RegExp; line: number; column: number }[] = [
    { name: 'YAML syntax error', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: {a: 1\n', message: /.+/, line: 5, column: 1 },
    { name: 'a list at the top', text: '- a\n- b\n', message: /unknown key|mapping/, line: 1, column: 1 },
    { name: 'unknown top-level key', text: 'crds: [a.yaml]\ncase: []\n', message: /unknown key "case" in a test file/, line: 2, column: 1 },
    { name: 'no cases', text: 'crds: [a.yaml]\n', message: /cases must be a non-empty list/, line: 1, column: 1 },
    { name: 'unknown case key', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    allow: true\n', message: /unknown key "allow" in a case/, line: 5, column: 5 },
    { name: 'no object', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    allowed: true\n', message: /case "x" needs an object/, line: 3, column: 5 },
    { name: 'no expectation', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n', message: /needs allowed: true or denied/, line: 3, column: 5 },
    { name: 'allowed and denied', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    allowed: true\n    denied: [{field: spec}]\n', message: /either allowed or denied/, line: 6, column: 5 },
    { name: 'allowed: false', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    allowed: false\n', message: /allowed must be true/, line: 5, column: 14 },
    { name: 'unknown operation', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    operation: delete\n    allowed: true\n', message: /operation must be one of create, update, status, scale-get, scale-update/, line: 5, column: 16 },
    { name: 'update without oldObject', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    operation: update\n    allowed: true\n', message: /an update needs an oldObject/, line: 5, column: 16 },
    { name: 'scale-update without replicas', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    operation: scale-update\n    allowed: true\n', message: /scale-update needs replicas/, line: 3, column: 5 },
    { name: 'kubeVersion as a number', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    kubeVersion: 1.30\n    allowed: true\n', message: /kubeVersion must be quoted/, line: 5, column: 18 },
    { name: 'kubeVersion newer than simulated', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    kubeVersion: "1.99"\n    allowed: true\n', message: /kubeVersion 1\.99 is not simulated: supported 1\.16 \(apiextensions\.k8s\.io\/v1\) to 1\.\d+/, line: 5, column: 18 },
    { name: 'kubeVersion older than v1 CRDs', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    kubeVersion: "1.15"\n    allowed: true\n', message: /kubeVersion 1\.15 is not simulated/, line: 5, column: 18 },
    { name: 'kubeVersion not a version', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    kubeVersion: "latest"\n    allowed: true\n', message: /kubeVersion must be a quoted "1\.MINOR"/, line: 5, column: 18 },
    { name: 'duplicate case names', text: 'crds: [a.yaml]\ncases:\n  - {name: x, object: o.yaml, allowed: true}\n  - {name: x, object: o.yaml, allowed: true}\n', message: /duplicate case name "x"/, line: 4, column: 12 },
    { name: 'a cause with message and messageContains', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    denied:\n      - {message: a, messageContains: b}\n', message: /message or messageContains, not both/, line: 6, column: 22 },
    { name: 'an unknown cause key', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: o.yaml\n    denied:\n      - {path: spec}\n', message: /unknown key "path" in a cause/, line: 6, column: 10 },
    { name: 'a number as object', text: 'crds: [a.yaml]\ncases:\n  - name: x\n    object: 3\n    allowed: true\n', message: /object must be an object or a path/, line: 4, column: 13 },
    { name: 'a non-CRD inline in crds', text: 'crds:\n  - {kind: Pod}\ncases:\n  - {name: x, object: o.yaml, allowed: true}\n', message: /must be a CustomResourceDefinition/, line: 2, column: 5 },
  ];
  for (const b of bad) {
    it(`${b.name}: one error with its position`, () => {
      const r = parseTestFile({ path: 'bad.crdx-test.yaml', text: b.text });
      expect(r.file).toBeUndefined();
      expect(r.errors.length).toBeGreaterThan(0);
      expect(r.errors[0]).toMatchObject({ file: 'bad.crdx-test.yaml', line: b.line, column: b.column });
      expect(r.errors[0]!.message).toMatch(b.message);
    });
  }

  it('the JSON Schema accepts exactly the kubeVersions crdx simulates', () => {
    const pattern = new RegExp(SCHEMA.definitions.case.properties.kubeVersion.pattern);
    for (let minor = 0; minor < 100; minor++) expect(pattern.test(`1.${minor}`), `1.${minor}`).toBe(isSimulated({ major: 1, minor }));
  });

  it('the JSON Schema refuses the malformed files that are well-formed YAML', async () => {
    const { parse } = await import('yaml');
    const validate = new Ajv({ strict: false }).compile(SCHEMA);
    for (const b of bad.filter((x) => !['YAML syntax error', 'duplicate case names', 'scale-update without replicas', 'update without oldObject'].includes(x.name))) {
      expect(validate(parse(b.text)), b.name).toBe(false);
    }
  });

  it('the JSON Schema accepts every fixture test file, and the reader reads them', async () => {
    const { parse } = await import('yaml');
    const validate = new Ajv({ strict: false }).compile(SCHEMA);
    const dir = join(ROOT, 'fixtures', 'tests');
    const files = readdirSync(dir).filter((f) => f.endsWith('.crdx-test.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(validate(parse(text)), `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(parseTestFile({ path: f, text }).errors, f).toEqual([]);
    }
  });
});

describe('running cases', () => {
  it('passes when the outcome is as expected, with defaults in the result', async () => {
    const r = run(file(`  - name: ok\n    object: ${thing('{}')}\n    allowed: true\n    result: {metadata: {namespace: default, generation: 1}, spec: {replicas: 1}}\n`));
    expect(r.errors).toEqual([]);
    expect(r.cases).toHaveLength(1);
    expect(r.cases[0]).toMatchObject({ name: 'ok', passed: true, mismatches: [] });
  });

  it('a failing expectation fails: allowed expected, the server denies (CEL), at the case and the key', async () => {
    const src = file(`  - name: too many\n    object: ${thing('{replicas: 7}')}\n    allowed: true\n`);
    const c = run(src).cases[0]!;
    expect(c.passed).toBe(false);
    expect(c.line).toBe(lineOf(src, 'name: too many'));
    expect(c.mismatches).toEqual([
      { what: 'verdict', expected: 'allowed', actual: 'denied (HTTP 422): spec: Invalid value: at most 5 replicas (FieldValueInvalid)', line: lineOf(src, 'allowed: true'), column: 14 },
    ]);
  });

  it('a denial expected, the object allowed, fails', () => {
    const c = run(file(`  - name: fine\n    object: ${thing('{replicas: 2}')}\n    denied: [{field: spec.replicas}]\n`)).cases[0]!;
    expect(c.passed).toBe(false);
    expect(c.mismatches[0]).toMatchObject({ what: 'verdict', expected: 'denied: field spec.replicas', actual: 'allowed' });
  });

  it('a wrong message fails, with expected and actual, at the cause', () => {
    // a bound is not a blocking error: the CEL rule is evaluated too
    const src = file(`  - name: max\n    object: ${thing('{replicas: 11}')}\n    denied:\n      - {field: spec.replicas, message: 'Invalid value: 11: too big'}\n      - {field: spec, messageContains: at most 5}\n`);
    const c = run(src).cases[0]!;
    expect(c.passed).toBe(false);
    expect(c.mismatches).toEqual([
      {
        what: 'cause 1',
        expected: 'field spec.replicas, message "Invalid value: 11: too big"',
        actual: 'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10 (FieldValueInvalid)',
        line: lineOf(src, 'too big'),
        column: 9,
      },
    ]);
  });

  it('the exact message, type and reason pass; causes match one to one', () => {
    const ok = run(
      file(
        `  - name: max\n    object: ${thing('{replicas: 11}')}\n    denied:\n      - {field: spec.replicas, type: Invalid, reason: FieldValueInvalid, message: 'Invalid value: 11: spec.replicas in body should be less than or equal to 10'}\n      - {field: spec, type: Invalid, message: 'Invalid value: at most 5 replicas'}\n`,
      ),
    ).cases[0]!;
    expect(ok.mismatches).toEqual([]);
    expect(ok.passed).toBe(true);
    // two expectations that fit the same single cause: one of them is missing
    const twice = run(file(`  - name: enum\n    object: ${thing('{mode: c}')}\n    denied:\n      - {field: spec.mode}\n      - {type: NotSupported}\n      - {field: <nil>}\n`)).cases[0]!;
    expect(twice.passed).toBe(false);
    expect(twice.mismatches.map((m) => m.what)).toEqual(['cause 2']);
    // a cause nobody expected
    const extra = run(file(`  - name: enum\n    object: ${thing('{mode: c}')}\n    denied:\n      - {field: spec.mode, type: NotSupported}\n`)).cases[0]!;
    expect(extra.mismatches.map((m) => [m.what, m.actual])).toEqual([['unexpected cause', '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation (FieldValueInvalid)']]);
  });

  it('warnings: exact list and contains', () => {
    const obj = thing('{replicas: 2, extra: 1}');
    const exact = run(file(`  - name: w\n    object: ${obj}\n    allowed: true\n    warnings: ['unknown field "spec.extra"']\n`)).cases[0]!;
    expect(exact.passed).toBe(true);
    const none = run(file(`  - name: w\n    object: ${obj}\n    allowed: true\n    warnings: []\n`)).cases[0]!;
    expect(none.mismatches).toMatchObject([{ what: 'warnings', expected: '[]', actual: '["unknown field \\"spec.extra\\""]' }]);
    const contains = run(file(`  - name: w\n    object: ${obj}\n    allowed: true\n    warnings: {contains: [spec.extra, spec.other]}\n`)).cases[0]!;
    expect(contains.mismatches.map((m) => m.expected)).toEqual(['a warning containing "spec.other"']);
  });

  it('result: a partial match, null meaning absent, lists whole', () => {
    const obj = thing('{replicas: 2, extra: 1}');
    const ok = run(file(`  - name: r\n    object: ${obj}\n    allowed: true\n    result: {spec: {replicas: 2, extra: null}, status: null}\n`)).cases[0]!;
    expect(ok.passed).toBe(true);
    const src = file(`  - name: r\n    object: ${obj}\n    allowed: true\n    result:\n      spec: {replicas: 3, extra: 1}\n`);
    const bad = run(src).cases[0]!;
    expect(bad.mismatches).toEqual([
      { what: 'result spec.replicas', expected: '3', actual: '2', line: lineOf(src, 'replicas: 3'), column: 24 },
      { what: 'result spec.extra', expected: '1', actual: '(absent)', line: lineOf(src, 'replicas: 3'), column: 34 },
    ]);
  });

  it('update, status and scale operations run on the object as created first', () => {
    const r = run(
      file(`  - name: up
    oldObject: ${thing('{replicas: 2}')}
    object: ${thing('{replicas: 3}')}
    allowed: true
    result: {metadata: {generation: 2}, spec: {replicas: 3}}
  - name: status keeps the spec
    operation: status
    object: {apiVersion: t.example.com/v1, kind: Thing, metadata: {name: x}, spec: {replicas: 4}, status: {replicas: 4}}
    allowed: true
    result: {metadata: {generation: 1}, spec: {replicas: 4}, status: {replicas: 4}}
  - name: scale get
    operation: scale-get
    object: ${thing('{replicas: 3}')}
    allowed: true
    result: {kind: Scale, apiVersion: autoscaling/v1, metadata: {name: x, namespace: default}, spec: {replicas: 3}, status: {replicas: 0}}
  - name: scale update over the CEL rule
    operation: scale-update
    replicas: 6
    object: ${thing('{replicas: 3}')}
    denied: [{field: spec, message: 'Invalid value: at most 5 replicas'}]
`),
    );
    expect(r.cases.map((c) => [c.name, c.passed, c.mismatches])).toEqual([
      ['up', true, []],
      ['status keeps the spec', true, []],
      ['scale get', true, []],
      ['scale update over the CEL rule', true, []],
    ]);
  });

  it('an oldObject the server refuses fails the case with why', () => {
    const c = run(file(`  - name: up\n    oldObject: ${thing('{replicas: 11}')}\n    object: ${thing('{replicas: 3}')}\n    allowed: true\n`)).cases[0]!;
    expect(c.passed).toBe(false);
    expect(c.error).toBe('the oldObject cannot be created first: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10; spec: Invalid value: at most 5 replicas');
  });

  it('an object of a kind no CRD of the file defines fails the case', () => {
    const c = run(file(`  - name: other\n    object: {apiVersion: t.example.com/v1, kind: Other, metadata: {name: o}}\n    allowed: true\n`)).cases[0]!;
    expect(c.passed).toBe(false);
    expect(c.error).toMatch(/^Other t\.example\.com\/v1: no CustomResourceDefinition for Other in group "t\.example\.com" among the inputs \(add it to crds\)$/);
  });

  it('a CRD the API server would refuse is an error of the file, at the problem in the CRD', () => {
    const src = file(`  - {name: a, object: ${thing('{}')}, allowed: true}\n`, CRD.replace('scope: Namespaced', 'scope: Everywhere'));
    const p = parseTestFile(src);
    const r = runTestFile(p.file!, NONE, { cel });
    expect(r.cases).toEqual([]);
    expect(r.errors).toEqual([
      {
        file: 't.crdx-test.yaml',
        line: lineOf(src, 'scope: Everywhere'),
        column: 14,
        message: 'the API server would refuse or not serve CustomResourceDefinition "things.t.example.com": spec.scope: Unsupported value: "Everywhere": supported values: "Cluster", "Namespaced"',
      },
    ]);
  });

  it('a version stored through a conversion webhook: not decided offline, except a create refused while validating', () => {
    const webhook = CRD.replace('      versions:\n', `      conversion: {strategy: Webhook, webhook: {conversionReviewVersions: [v1], clientConfig: {url: 'https://conv.example.com/convert'}}}\n      versions:\n        - name: v2\n          served: true\n          storage: true\n          schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n`).replace('          storage: true\n          subresources', '          storage: false\n          subresources');
    const r = run(file(`  - {name: stored, object: ${thing('{}')}, allowed: true}\n  - name: refused\n    object: ${thing('{mode: c}')}\n    denied: [{field: spec.mode}, {field: <nil>}]\n`, webhook));
    expect(r.errors).toEqual([]);
    expect(r.cases.map((c) => [c.name, c.passed, c.error])).toEqual([
      ['stored', false, 'the object is stored as t.example.com/v2 through the CRD\'s conversion webhook, which crdx does not run: the verdict is not decided offline'],
      ['refused', true, undefined],
    ]);
  });

  it('a CEL rule crdx cannot evaluate: not decided offline, naming the rule and why', () => {
    // a timestamp read in the server's own time zone ("Local")
    const withOptional = CRD.replace('- {rule: "self.replicas <= 5", message: at most 5 replicas}', `- {rule: "self.replicas <= 5", message: at most 5 replicas}\n                    - {rule: "timestamp('2026-11-28T10:00:00Z').getHours('Local') < 24"}`);
    const r = run(file(`  - {name: q, object: ${thing('{}')}, allowed: true}\n`, withOptional));
    expect(r.cases.map((c) => [c.name, c.passed, c.error])).toEqual([
      ['q', false, `crdx cannot evaluate the CEL rule "timestamp('2026-11-28T10:00:00Z').getHours('Local') < 24" on this object as the server would: crdx does not reproduce the server here: the time zone "Local" (the server's own): the verdict is not decided offline`],
    ]);
  });

  it('--filter runs only the cases whose name contains the text', () => {
    const r = run(file(`  - {name: one a, object: ${thing('{}')}, allowed: true}\n  - {name: two, object: ${thing('{}')}, allowed: true}\n  - {name: three a, object: ${thing('{}')}, allowed: true}\n`), NONE, ' a');
    expect(r.cases.map((c) => c.name)).toEqual(['one a', 'three a']);
  });

  it('a CRD path that matches nothing, or an unreadable object file, is an error of the file at the entry', () => {
    const src: SourceFile = { path: 'f.crdx-test.yaml', text: 'crds:\n  - crds/*.yaml\ncases:\n  - {name: a, object: o.yaml, allowed: true}\n' };
    const p = parseTestFile(src).file!;
    const noCrd = runTestFile(p, { crdFiles: new Map([['crds/*.yaml', []]]), objectFiles: new Map(), problems: new Map() }, { cel });
    expect(noCrd.errors).toEqual([{ file: 'f.crdx-test.yaml', line: 2, column: 5, message: 'no file matches "crds/*.yaml"' }]);
    const crdFile: SourceFile = { path: 'crds/c.yaml', text: CRD.replace(/^ {2}- /m, '').replace(/^ {4}/gm, '') };
    const noObj = runTestFile(p, { crdFiles: new Map([['crds/*.yaml', [crdFile]]]), objectFiles: new Map(), problems: new Map([['o.yaml', 'o.yaml: no such file or directory']]) }, { cel });
    expect(noObj.errors).toEqual([{ file: 'f.crdx-test.yaml', line: 4, column: 23, message: 'o.yaml: no such file or directory' }]);
    const badYaml = runTestFile(p, { crdFiles: new Map([['crds/*.yaml', [crdFile]]]), objectFiles: new Map([['o.yaml', { path: 'o.yaml', text: 'a: [1\n' }]]), problems: new Map() }, { cel });
    expect(badYaml.errors[0]).toMatchObject({ file: 'o.yaml', line: 2 });
    const ok = runTestFile(p, { crdFiles: new Map([['crds/*.yaml', [crdFile]]]), objectFiles: new Map([['o.yaml', { path: 'o.yaml', text: `${thing('{}').slice(1, -1).replace(/, (?=[a-z]+:)/g, '\n')}\n` }]]), problems: new Map() }, { cel });
    expect(ok.errors).toEqual([]);
    expect(ok.cases[0]).toMatchObject({ passed: true });
  });
});

describe('output', () => {
  const src = file(`  - name: good\n    object: ${thing('{}')}\n    allowed: true\n  - name: 'bad <&> #1'\n    object: ${thing('{replicas: 2}')}\n    result: {spec: {replicas: 3}}\n    allowed: true\n`);
  const make = (): TestRun => {
    const f = { ...run(src), ms: 12 };
    const broken = { file: 'broken.crdx-test.yaml', errors: [{ file: 'broken.crdx-test.yaml', line: 3, column: 7, message: 'cases must be a non-empty list' }], cases: [], ms: 0 };
    const files = [f, broken];
    return { files, summary: summarize(files) };
  };

  it('text: a line per case, expected and actual under a failure, the summary line', () => {
    expect(formatText(make(), { style: PLAIN_STYLE, toolVersion: 'x' })).toBe(
      [
        't.crdx-test.yaml',
        'PASS good',
        `FAIL bad <&> #1 (t.crdx-test.yaml:${lineOf(src, "name: 'bad")}:5, create)`,
        `    result spec.replicas (line ${lineOf(src, 'replicas: 3')}:31)`,
        '      expected: 3',
        '      actual:   2',
        '1 passed, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('json: files, cases with outcomes, summary', () => {
    const j = JSON.parse(formatJson(make()));
    expect(j.summary).toEqual({ passed: 1, failed: 1, errors: 1 });
    expect(j.files[0].cases[1]).toMatchObject({ name: 'bad <&> #1', passed: false, operation: 'create', outcome: { allowed: true, code: 201 } });
    expect(j.files[1].errors[0]).toEqual({ file: 'broken.crdx-test.yaml', line: 3, column: 7, message: 'cases must be a non-empty list' });
  });

  it('junit: a suite per file, a failure per failed case, an error for an unreadable file; escaped', () => {
    const x = formatJunit(make());
    expect(x).toContain('<testsuites name="kubectl crdx test" tests="2" failures="1" errors="1">');
    expect(x).toContain('<testcase name="bad &lt;&amp;&gt; #1" classname="t.crdx-test.yaml" file="t.crdx-test.yaml"');
    expect(x).toMatch(/<failure message="result spec.replicas: expected 3, actual 2" type="mismatch">/);
    expect(x).toContain('<error message="cases must be a non-empty list">broken.crdx-test.yaml:3:7: cases must be a non-empty list</error>');
    expect(x.match(/<testcase /g)).toHaveLength(3);
  });

  it('tap: a plan, one point per case and per unreadable file, # escaped in names, the summary as a comment', () => {
    const t = formatTap(make()).split('\n');
    expect(t.slice(0, 4)).toEqual(['TAP version 13', '1..3', 'ok 1 - t.crdx-test.yaml: good', 'not ok 2 - t.crdx-test.yaml: bad <&> \\#1']);
    expect(t).toContain('not ok 3 - broken.crdx-test.yaml');
    expect(t).toContain('      expected: "3"');
    expect(t.at(-2)).toBe('# 1 passed, 1 failed');
  });
});

describe('--update', () => {
  const path = join(ROOT, 'fixtures', 'tests-failing', 'widgets-failing.crdx-test.yaml');
  const text = readFileSync(path, 'utf8');
  const crd: SourceFile = { path: 'fixtures/crds/01-widgets.yaml', text: readFileSync(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), 'utf8') };
  const loaded: LoadedFiles = { crdFiles: new Map([['../crds/01-widgets.yaml', [crd]]]), objectFiles: new Map(), problems: new Map() };
  const runText = (t: string) => {
    const p = parseTestFile({ path: 'f.crdx-test.yaml', text: t });
    expect(p.errors).toEqual([]);
    return { model: p.file!, result: runTestFile(p.file!, loaded, { cel }) };
  };

  it('rewrites the failing expectations so they pass, keeps comments and the rest, and is then a no-op', async () => {
    const { updateTestFile } = await import('../../src/crdtest/update.js');
    const before = runText(text);
    expect(before.result.cases.map((c) => c.passed)).toEqual([false, false, false, false, false]);
    const u = updateTestFile(text, before.model, before.result);
    // the case whose oldObject the server refuses has no outcome to write
    expect(u.updated).toEqual(['expects allowed, the CEL rule denies', 'the right field, the wrong message', 'a default that is not there', 'a warning that does not come']);
    const after = runText(u.text);
    expect(after.result.cases.map((c) => [c.name, c.passed])).toEqual([
      ['expects allowed, the CEL rule denies', true],
      ['the right field, the wrong message', true],
      ['a default that is not there', true],
      ['a warning that does not come', true],
      ['an oldObject the server refuses', false],
    ]);
    // comments, key order, flow style and blank lines of what did not change are kept
    const lines = u.text.split('\n');
    for (const l of text.split('\n').filter((x) => x.startsWith('#') || x.includes('metadata: {name:') || x.includes('kind: Widget') || x === '')) expect(lines).toContain(l);
    expect(lines.filter((l) => l.startsWith('  - name: '))).toEqual(text.split('\n').filter((l) => l.startsWith('  - name: ')));
    expect(u.text).toContain('    denied:\n      - field: spec\n        reason: FieldValueInvalid\n        message: "Invalid value: replicas must be at least minReplicas"\n');
    expect(u.text).toContain('    result:\n      spec: {size: medium}\n');
    expect(u.text).toContain('    warnings: []\n');
    expect(u.text).not.toMatch(/allowed: true\n\n {2}- name: the right field/);
    // once more: nothing left to rewrite
    const again = updateTestFile(u.text, after.model, after.result);
    expect(again).toEqual({ text: u.text, updated: [] });
  });

  it('a denial that turns allowed: allowed: true takes the place of denied; causes that matched are kept as written', async () => {
    const { updateTestFile } = await import('../../src/crdtest/update.js');
    const src = file(`  - name: now fine # a comment\n    object: ${thing('{replicas: 2}')}\n    denied: [{field: spec.replicas}]\n    warnings: []\n  - name: two causes\n    object: ${thing('{replicas: 11}')}\n    denied:\n      - {field: spec.replicas, messageContains: less than or equal} # kept\n`);
    const p = parseTestFile(src).file!;
    const u = updateTestFile(src.text, p, runTestFile(p, NONE, { cel }));
    expect(u.updated).toEqual(['now fine', 'two causes']);
    expect(u.text).toContain(`  - name: now fine # a comment\n    object: ${thing('{replicas: 2}')}\n    allowed: true\n    warnings: []\n`);
    expect(u.text).toContain('      - {field: spec.replicas, messageContains: less than or equal} # kept\n      - field: spec\n        reason: FieldValueInvalid\n        message: "Invalid value: at most 5 replicas"\n');
    const again = parseTestFile({ path: 't', text: u.text }).file!;
    expect(runTestFile(again, NONE, { cel }).cases.map((c) => c.passed)).toEqual([true, true]);
  });
});

describe('--coverage', () => {
  it('each constraint of the CRD at its position, held and refused counts from the passing cases', async () => {
    const { Coverage } = await import('../../src/crdtest/coverage.js');
    const path = join(ROOT, 'fixtures', 'tests', 'widgets.crdx-test.yaml');
    const crdText = readFileSync(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), 'utf8');
    const crd: SourceFile = { path: 'fixtures/crds/01-widgets.yaml', text: crdText };
    const p = parseTestFile({ path: 'w.crdx-test.yaml', text: readFileSync(path, 'utf8') }).file!;
    const cov = new Coverage();
    const r = runTestFile(p, { crdFiles: new Map([['../crds/01-widgets.yaml', [crd]]]), objectFiles: new Map(), problems: new Map() }, { cel, onCase: cov.onCase });
    expect(r.cases.every((c) => c.passed)).toBe(true);
    const [report] = cov.report();
    expect(report!.crd).toBe('widgets.example.com');
    const row = (kind: string, node: string) => report!.constraints.find((k) => k.kind === kind && k.node === node);
    const lineOfText = (needle: string) => crdText.split('\n').findIndex((l) => l.includes(needle)) + 1;
    // the CEL rule: held by the valid widgets, refused once ("replicas below minReplicas")
    expect(row('cel', 'spec')).toMatchObject({ detail: 'self.minReplicas <= self.replicas', file: 'fixtures/crds/01-widgets.yaml', line: lineOfText('rule: self.minReplicas'), violated: 1 });
    expect(row('cel', 'spec')!.held).toBeGreaterThan(0);
    // the enum: refused by "size must be one of the enum", held by the defaulted ones
    expect(row('enum', 'spec.size')).toMatchObject({ violated: 1, line: lineOfText('enum: [small, medium, large]') });
    // no case refuses spec.replicas < 0
    expect(row('minimum', 'spec.replicas')).toMatchObject({ violated: 0 });
    // status.conditions is never written in these cases
    expect(row('enum', 'status.conditions[*].status')).toMatchObject({ held: 0, violated: 0 });
    expect(row('required', 'spec.ports[*]')).toMatchObject({ detail: 'name', held: 1, violated: 0 });
  });
});

describe('--init', () => {
  it('a starter file that reads and validates: the minimal objects pass, one denied case per CEL rule waits to be filled in', async () => {
    const { scaffoldTestFile } = await import('../../src/crdtest/scaffold.js');
    const { buildCrd } = await import('../../src/crd/model.js');
    const { parseFile } = await import('../../src/manifest/parse.js');
    const { parse } = await import('yaml');
    const crdFile: SourceFile = { path: 'backups.yaml', text: readFileSync(join(ROOT, 'fixtures', 'tests', 'crds', 'backups.yaml'), 'utf8') };
    const crds = parseFile(crdFile).flatMap((d) => d.manifests).map((m) => buildCrd(m, { major: 1, minor: 36 }, cel));
    const s = scaffoldTestFile(crds, 'backups.yaml', { major: 1, minor: 36 });
    // one served version, five CEL rules
    expect(s.cases).toBe(6);
    const validate = new Ajv({ strict: false }).compile(SCHEMA);
    expect(validate(parse(s.text)), JSON.stringify(validate.errors)).toBe(true);
    const p = parseTestFile({ path: 'backups.crdx-test.yaml', text: s.text });
    expect(p.errors).toEqual([]);
    const r = runTestFile(p.file!, { crdFiles: new Map([['backups.yaml', [crdFile]]]), objectFiles: new Map(), problems: new Map() }, { cel });
    expect(r.cases.map((c) => [c.name, c.operation, c.passed])).toEqual([
      ['a minimal Backup v1 is accepted', 'create', true],
      ['Backup spec: rule 1', 'create', false],
      ['Backup spec: an active backup needs a schedule', 'create', false],
      ['Backup spec.target: target is immutable', 'update', false],
      ['Backup spec.excludes: excludes are relative paths', 'create', false],
      ['Backup spec.tier: a cold backup cannot become hot again', 'update', false],
    ]);
    // the required fields and the defaults the server fills in
    expect(p.file!.cases[0]!.expect.result).toEqual({ spec: { schedule: 'example', target: 'example', suspend: false, minRetentionDays: 7 } });
    expect(s.text).toContain('  # TODO: change the object so that it breaks the rule\n  #   self.all(x, !x.startsWith(\'/\'))\n');
  });
});

describe('files a test file names', () => {
  it('CRDs by path, directory and glob (*, ?, **), relative to the test file; object files; unreadable ones', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { readNamedFiles, findTestFiles } = await import('../../src/io/test-files.js');
    const d = mkdtempSync(join(tmpdir(), 'crdx-named-'));
    mkdirSync(join(d, 'a', 'crds', 'deep'), { recursive: true });
    for (const f of ['a/crds/one.yaml', 'a/crds/two.yml', 'a/crds/deep/three.yaml', 'a/crds/notes.txt', 'a/obj.yaml']) writeFileSync(join(d, f), 'x: 1\n');
    writeFileSync(join(d, 'a', 't.crdx-test.yaml'), 'crds: []\n');
    writeFileSync(join(d, 'a', 'crds', 'deep', 'u.crdx-test.yml'), 'crds: []\n');
    const n = await readNamedFiles(join(d, 'a', 't.crdx-test.yaml'), ['crds/*.yaml', 'crds/**/*.yaml', 'crds/t?o.yml', 'crds', 'crds/deep/three.yaml', 'nothing/*.yaml', 'missing.yaml'], ['obj.yaml', 'gone.yaml'], d);
    const names = (p: string) => (n.crdFiles.get(p) ?? []).map((f) => f.path);
    expect(names('crds/*.yaml')).toEqual([join('a', 'crds', 'one.yaml')]);
    expect(names('crds/**/*.yaml')).toEqual([join('a', 'crds', 'deep', 'three.yaml'), join('a', 'crds', 'one.yaml')]);
    expect(names('crds/t?o.yml')).toEqual([join('a', 'crds', 'two.yml')]);
    expect(names('crds')).toEqual([join('a', 'crds', 'deep', 'three.yaml'), join('a', 'crds', 'deep', 'u.crdx-test.yml'), join('a', 'crds', 'one.yaml'), join('a', 'crds', 'two.yml')]);
    expect(names('crds/deep/three.yaml')).toEqual([join('a', 'crds', 'deep', 'three.yaml')]);
    expect(names('nothing/*.yaml')).toEqual([]);
    expect(n.problems.get('missing.yaml')).toBe(`${join('a', 'missing.yaml')}: no such file or directory`);
    expect(n.objectFiles.get('obj.yaml')?.path).toBe(join('a', 'obj.yaml'));
    expect(n.problems.get('gone.yaml')).toBe(`${join('a', 'gone.yaml')}: no such file or directory`);
    // test files: *.crdx-test.yaml and .yml below a directory, sorted
    expect((await findTestFiles([d])).files).toEqual([join(d, 'a', 'crds', 'deep', 'u.crdx-test.yml'), join(d, 'a', 't.crdx-test.yaml')]);
    rmSync(d, { recursive: true });
  });
});
