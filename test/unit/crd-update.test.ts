/**
 * lint --old (CRD updates) against the real server's answers recorded in fixtures/update/<case>/server.json
 * (test/conformance/crd-update.conformance.test.ts with CRDX_RECORD=1), plus what the server cannot
 * show on a fresh cluster: ratcheting of invalid parts an installed CRD already has (a v1.36 server
 * refuses to create such a CRD, so only the upstream source can say what an update of it does).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import type { SourceFile } from '../../src/manifest/parse.js';
import { cel } from '../helpers/cel.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'update');

interface Verdict {
  status: number;
  causes: string[];
  warnings: string[];
}

function lint(newFile: SourceFile, old: readonly SourceFile[]) {
  return lintSources([newFile], { kubeVersion: DEFAULT_KUBE_VERSION, cel, old });
}

function verdict(newFile: SourceFile, old: readonly SourceFile[], name: string): Verdict {
  const r = lint(newFile, old);
  const own = r.findings.filter((f) => f.object?.name === name);
  const u = r.summary.updates?.find((x) => x.name === name);
  return {
    status: u === undefined ? -1 : u.accepted ? 200 : 422,
    causes: [...new Set(own.filter((f) => f.server).map((f) => `${f.server!.reason} ${f.server!.field}: ${f.server!.message}`))].sort(),
    warnings: own
      .filter((f) => f.ruleId === 'unrecognized-format')
      .map((f) => f.message.replace(/ \(type "[^"]*"\): the server warns and does not validate it$/, ''))
      .sort(),
  };
}

const read = (p: string): SourceFile => ({ path: p, text: readFileSync(p, 'utf8') });

describe('lint --old gives the recorded server verdict', () => {
  const cases = readdirSync(FIXTURES).filter((d) => existsSync(join(FIXTURES, d, 'server.json')));
  it('has recorded cases', () => expect(cases.length).toBeGreaterThanOrEqual(20));
  for (const c of cases) {
    it(c, () => {
      const recorded = JSON.parse(readFileSync(join(FIXTURES, c, 'server.json'), 'utf8')) as Record<string, Verdict>;
      for (const [name, theirs] of Object.entries(recorded))
        expect(verdict(read(join(FIXTURES, c, 'new.yaml')), [read(join(FIXTURES, c, 'old.yaml'))], name), name).toEqual(theirs);
    });
  }
});

describe('lint --old findings', () => {
  it('point at NEW, and at OLD where the cause comes from the installed CRD', () => {
    const dir = join(FIXTURES, 'names-and-stored-changed');
    const r = lint(read(join(dir, 'new.yaml')), [read(join(dir, 'old.yaml'))]);
    const rows = r.findings.map((f) => `${f.ruleId} ${f.path} @${f.line}:${f.column} old@${f.old ? `${f.old.line}:${f.old.column}` : '-'}`).sort();
    expect(rows).toEqual([
      'group-and-names spec.names.kind @11:11 old@11:11',
      'scope spec.scope @7:10 old@7:10',
      'upgrade-safety spec.versions[0].storage @16:16 old@16:16',
      'versions spec.versions @14:5 old@14:13',
    ]);
    expect(r.findings.every((f) => f.old === undefined || f.old.file.endsWith('old.yaml'))).toBe(true);
    expect(r.summary.updates).toEqual([
      { name: 'widgets.example.com', file: join(dir, 'new.yaml'), line: 1, column: 1, accepted: false, findings: 4, breaking: 1 },
    ]);
  });

  it('a stored version listed in status points at status.storedVersions of OLD', () => {
    const old = read(join(FIXTURES, 'stored-version-removed', 'old.yaml'));
    const withStatus = { path: 'installed.yaml', text: `${old.text}status:\n  storedVersions:\n    - v0\n    - v1\n` };
    const r = lint(read(join(FIXTURES, 'stored-version-removed', 'new.yaml')), [withStatus]);
    const missing = r.findings.filter((f) => f.server?.message.includes('missing from spec.versions'));
    expect(missing.map((f) => [f.server!.field, f.old?.line])).toEqual([
      ['status.storedVersions[0]', 27],
      ['status.storedVersions[1]', 28],
    ]);
  });

  it('a CRD of NEW that is not in OLD is a create: no update summary, create checks', () => {
    const r = lint(read(join(FIXTURES, 'plural-changed', 'new.yaml')), []);
    expect(r.summary.updates).toEqual([]);
    expect(r.findings.map((f) => f.ruleId)).toEqual(['crd-name']);
  });

  it('an installed CRD the input does not replace still holds its names', () => {
    const dir = join(FIXTURES, 'kind-changed-not-established');
    const taken = { path: 'new.yaml', text: readFileSync(join(dir, 'new.yaml'), 'utf8').replace(/Gadget/g, 'Widget').replace('scope: Cluster', 'scope: Namespaced') };
    const r = lint(taken, [read(join(dir, 'old.yaml'))]);
    expect(r.findings.map((f) => `${f.ruleId} ${f.path}`)).toEqual(['naming-conflicts spec.names.kind', 'naming-conflicts spec.names.listKind']);
    expect(r.summary.updates?.[0]?.accepted).toBe(true);
  });

  it('an OLD file that cannot be read is reported, not silently taken as no installed CRD', () => {
    const r = lint(read(join(FIXTURES, 'kind-changed', 'new.yaml')), [{ path: 'old.yaml', text: 'kind: [\n' }]);
    expect(r.findings.map((f) => `${f.ruleId} ${f.file} ${f.severity}`)).toContain('parse old.yaml error');
    expect(r.summary.updates).toEqual([]);
  });

  it('an update the decoder refuses (400) is rejected', () => {
    const dir = join(FIXTURES, 'version-added');
    const text = readFileSync(join(dir, 'new.yaml'), 'utf8').replace('  name: widgets.example.com\n', '  name: widgets.example.com\n  labels: {system: yes}\n');
    const r = lint({ path: 'new.yaml', text }, [read(join(dir, 'old.yaml'))]);
    expect(r.findings.map((f) => f.ruleId)).toEqual(['crd-decode']);
    expect(r.summary.updates?.[0]?.accepted).toBe(false);
  });

  it('the Established condition of OLD decides over the inference', () => {
    const dir = join(FIXTURES, 'kind-changed');
    const old = readFileSync(join(dir, 'old.yaml'), 'utf8');
    const notEstablished = `${old}status:\n  conditions:\n    - type: Established\n      status: "False"\n  storedVersions: [v1]\n`;
    const r = lint(read(join(dir, 'new.yaml')), [{ path: 'old.yaml', text: notEstablished }]);
    expect(r.findings).toEqual([]);
    expect(r.summary.updates?.[0]?.accepted).toBe(true);
  });
});

/** A CRD whose only version's spec schema holds `props` (YAML flow), optionally a second version. */
function crdWith(props: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties: ${props}
`;
}

describe('ratcheting of parts the installed CRD already has (upstream validation.go, not creatable on v1.36)', () => {
  const nonAtomicSet = '{tags: {type: array, x-kubernetes-list-type: set, items: {type: object, properties: {a: {type: string}}}}}';
  const nullableMapKey =
    '{ports: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [name], items: {type: object, properties: {name: {type: string}}}}}';
  for (const [what, props, rule] of [
    ['a set of non-atomic items (requireAtomicSetType)', nonAtomicSet, 'list-map-types'],
    ['a map-list key that is neither required nor defaulted (requireMapListKeysMapSetValidation)', nullableMapKey, 'list-map-types'],
  ] as const) {
    it(`${what}: refused on create, tolerated on an update of a CRD that has it`, () => {
      const text = crdWith(props);
      const create = lintSources([{ path: 'new.yaml', text }], { kubeVersion: DEFAULT_KUBE_VERSION, cel });
      expect(create.findings.filter((f) => f.ruleId === rule).length).toBeGreaterThan(0);
      const update = lint({ path: 'new.yaml', text }, [{ path: 'old.yaml', text }]);
      expect(update.findings).toEqual([]);
      // the installed CRD without it: the update is refused as a create would be
      const clean = lint({ path: 'new.yaml', text }, [{ path: 'old.yaml', text: crdWith('{size: {type: string}}') }]);
      expect(clean.findings.filter((f) => f.ruleId === rule).map((f) => f.server?.field)).toEqual(create.findings.filter((f) => f.ruleId === rule).map((f) => f.server?.field));
    });
  }
});

describe('CEL expressions the installed CRD already has compile in the stored-expressions environment', () => {
  // on a 1.34 server new expressions compile with compatibility version 1.33, where the cel-go lists
  // extension (distinct) is not declared; stored ones with every library of the server
  const kubeVersion = { major: 1, minor: 34 };
  const withRule = (rule: string, messageExpression?: string): string =>
    crdWith(`{tags: {type: array, maxItems: 10, items: {type: string, maxLength: 10}, x-kubernetes-validations: [{rule: ${JSON.stringify(rule)}${messageExpression ? `, messageExpression: ${JSON.stringify(messageExpression)}` : ''}}]}}`);
  const compileErrors = (newText: string, oldText?: string) =>
    lintSources([{ path: 'new.yaml', text: newText }], { kubeVersion, cel, ...(oldText ? { old: [{ path: 'old.yaml', text: oldText }] } : {}) })
      .findings.filter((f) => f.ruleId === 'cel-compile')
      .map((f) => `${f.server?.field}: ${f.server?.message.split('\n')[0]}`);
  const rule = 'self.distinct().size() == self.size()';

  it('a rule using a library newer than minor − 1: refused on create, accepted on an update that keeps it', () => {
    const text = withRule(rule);
    const created = compileErrors(text);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatch(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[tags\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*: compilation failed: ERROR: <input>:1:\d+: undeclared reference to 'distinct' \(in container ''\)$/);
    expect(compileErrors(text, text)).toEqual([]);
    // the same rule added by the update (the installed CRD has another one) is a new expression
    expect(compileErrors(text, withRule('self.size() > 0'))).toHaveLength(1);
  });

  it('a stored rule compiled in the stored-expressions environment counts in the schema\'s cost total', () => {
    // the stored distinct() rule costs 8,000,016, each added comprehension 7,229,990: 13 of them alone
    // (93,989,870) stay under the 100,000,000 total, with the stored rule they do not. The server's
    // answer, recorded from a real 1.35 apiextensions-apiserver creating NEW (its new-rule environment,
    // compatibility version 1.34, is the 1.34 server's stored-expressions environment; an update of a
    // CRD holding the rule cannot be replayed on a fresh 1.34 server, which never stored it):
    //   Forbidden spec.validation.openAPIV3Schema: x-kubernetes-validations estimated rule cost total
    //   for entire OpenAPIv3 schema exceeds budget by factor of 1.019803x (…), and "contributed to …"
    //   on the stored rule and on three of the added ones (which three: Go's map order, a tie)
    const stored = 'tags: {type: array, maxItems: 2000, items: {type: string, maxLength: 10}, x-kubernetes-validations: [{rule: "self.distinct().size() == self.size()"}]}';
    const added = Array.from({ length: 13 }, (_, i) => `l${i}: {type: array, maxItems: 850, items: {type: string, maxLength: 10}, x-kubernetes-validations: [{rule: "self.all(x, self.exists(y, x == y))"}]}`).join(', ');
    const costCauses = (newText: string, oldText: string) =>
      lintSources([{ path: 'new.yaml', text: newText }], { kubeVersion, cel, old: [{ path: 'old.yaml', text: oldText }] })
        .findings.filter((f) => f.ruleId === 'cel-cost')
        .map((f) => `${f.server?.reason} ${f.server?.field}: ${f.server?.message}`);
    const got = costCauses(crdWith(`{${stored}, ${added}}`), crdWith(`{${stored}}`));
    const at = (p: string) => `FieldValueForbidden spec.validation.openAPIV3Schema.properties[spec].properties[${p}].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`;
    expect(got.filter((c) => c.includes('properties[l'))).toHaveLength(3);
    expect(got.filter((c) => !c.includes('properties[l')).sort()).toEqual([
      'FieldValueForbidden spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.019803x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      at('tags'),
    ].sort());
    for (const c of got.filter((x) => x.includes('properties[l'))) expect(c).toMatch(/^FieldValueForbidden .*properties\[l\d+\]\.x-kubernetes-validations\[0\]\.rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema$/);
    // without the stored rule the added ones pass (the server: created)
    expect(costCauses(crdWith(`{${added}}`), crdWith(`{size: {type: string}}`))).toEqual([]);
  });

  it('rules and messageExpressions are tracked apart: a stored rule text does not admit a messageExpression', () => {
    const me = "self.distinct().size() == 1 ? 'x' : 'y'";
    const old = withRule("self.distinct().size() == 1 ? true : false");
    const next = withRule('self.size() > 0', me);
    expect(compileErrors(next, old)).toHaveLength(1);
    expect(compileErrors(next, withRule('self.size() >= 0', me))).toEqual([]);
  });
});

describe('the per-expression cost limit on an update', () => {
  // a nested comprehension over 8 unbounded strings: about 20,000,000, over the per-rule budget, under the total
  const over = (extra = '') =>
    crdWith(`{${extra}tags: {type: array, maxItems: 8, items: {type: string}, x-kubernetes-validations: [{rule: "self.all(x, self.all(y, x == y))"}]}}`);
  const costErrors = (newText: string, oldText?: string) =>
    lintSources([{ path: 'new.yaml', text: newText }], { kubeVersion: DEFAULT_KUBE_VERSION, cel, ...(oldText ? { old: [{ path: 'old.yaml', text: oldText }] } : {}) })
      .findings.filter((f) => f.ruleId === 'cel-cost')
      .map((f) => `${f.server?.reason} ${f.server?.field}`);

  it('applies on create and when the schema changed; not to a version whose schema the update leaves as stored', () => {
    const field = 'FieldValueForbidden spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule';
    expect(costErrors(over())).toEqual([field]);
    expect(costErrors(over(), over())).toEqual([]);
    expect(costErrors(over('size: {type: string}, '), over())).toEqual([field]);
  });
});
