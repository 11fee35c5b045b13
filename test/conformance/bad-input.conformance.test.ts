/**
 * Odd input as kubectl 1.32 and the real apiextensions-apiserver treat it, against lint and default:
 * duplicate keys (kubectl keeps the last value, silently), numbers beyond float64 (`1e400` stays a
 * string), int64s beyond 2^53 (exact) and their bounds, and number keys (sigs.k8s.io/yaml's JSON keys).
 * kubectl does the YAML-to-JSON conversion the server never sees, so the real kubectl is run
 * (`kubectl create --dry-run=server`, KUBECTL or /usr/bin/kubectl); skipped without it or without Go.
 */
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type JsonOutput } from '../fuzz/run-cli.js';
import { parseFile } from '../../src/manifest/parse.js';
import { corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';
import { deleteAllCRDs, goAvailable, startHarness, waitEstablished, type Harness } from './harness.js';

const KUBECTL = process.env['KUBECTL'] ?? '/usr/bin/kubectl';
const RUN = goAvailable() && existsSync(KUBECTL);
if (!RUN) console.warn(`bad-input conformance skipped: needs go and kubectl (${KUBECTL})`);

/** A namespaced example.com CRD with one served and stored version v1; `schema` is the openAPIV3Schema as YAML indented under it. */
function crdYaml(plural: string, kind: string, schema: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${plural}.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: ${plural}, singular: ${kind.toLowerCase()}, kind: ${kind}, listKind: ${kind}List}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
${schema}`;
}

/** The real kubectl against the harness, the manifest on stdin; `keepNewline` keeps stdout exactly as printed. */
function kubectlAt(h: Harness, args: string[], input: string, keepNewline = false) {
  return execa(KUBECTL, ['--kubeconfig', h.kubeconfig, ...args, '-f', '-'], { input, reject: false, stripFinalNewline: !keepNewline });
}

/** kubectl creates a CRD and it becomes Established. */
async function createCrd(h: Harness, crd: string, name: string): Promise<void> {
  const r = await kubectlAt(h, ['create'], crd);
  expect(r.exitCode, r.stderr).toBe(0);
  expect(await waitEstablished(h, name)).toBeDefined();
}

/** The file's one server: started by the first block that runs, stopped after the last. */
let server: Harness | undefined;
afterAll(async () => {
  await server?.stop();
});

/** Inside a describe block: the file's server (`.h`), with `setup` run before the block's tests. */
function useServer(setup?: (h: Harness) => Promise<void>): { readonly h: Harness } {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = server ??= await startHarness();
    await setup?.(h);
  });
  return {
    get h(): Harness {
      if (h === undefined) throw new Error('the server did not start');
      return h;
    },
  };
}

/** kubectl's output without the metadata the server generates on create (default leaves it out). */
const SERVER_META = /^\s*"?(creationTimestamp|generation|uid|resourceVersion)"?: .*\n/gm;
function withoutServerMeta(text: string): string {
  return text.replace(SERVER_META, '').replace(/,\n(\s*)}/g, '\n$1}');
}

const CRD = crdYaml(`nums`, `Num`, `        type: object
        properties:
          spec:
            type: object
            properties:
              i: {type: integer}
              im: {type: integer, maximum: 9223372036854775806}
              i53: {type: integer, maximum: 9007199254740992}
              imin: {type: integer, minimum: -9223372036854775807}
              num: {type: number}
              s: {type: string}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
`);
const cr = (spec: string): string => `apiVersion: example.com/v1\nkind: Num\nmetadata: {name: x, namespace: default}\nspec: ${spec}\n`;

/** The `"spec":{…}` of a JSON text, whitespace removed (numbers compared as written, not as JS numbers). */
function specText(json: string): string {
  const compact = json.replace(/\s+/g, '');
  const start = compact.indexOf('"spec":{');
  let depth = 0;
  for (let i = start + 7; i < compact.length; i++) {
    if (compact[i] === '{') depth++;
    else if (compact[i] === '}' && --depth === 0) return compact.slice(start, i + 1);
  }
  return compact;
}

/** The number tokens of a JSON text (outside strings), sorted. */
function numbers(json: string): string[] {
  return (json.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/-?\d[\d.eE+-]*/g) ?? []).sort();
}

/** kubectl's rendering of a 422: `… is invalid: MSG` or one `* MSG` line per cause. */
function kubectlCauses(stderr: string): string[] {
  const body = stderr.replace(/^.*? is invalid: ?/s, '').trim();
  return body.startsWith('*') ? body.split('\n').map((l) => l.replace(/^\* /, '').trim()).filter((l) => l !== '') : [body];
}

describe.skipIf(!RUN)('odd input: kubectl 1.32 and the real server against lint and default', () => {
  const s = useServer((h) => createCrd(h, CRD, 'nums.example.com'));
  const kubectl = (args: string[], input: string) => kubectlAt(s.h, args, input);


  it('a duplicate key in a CRD: kubectl sends the last value, silently; lint keeps the last value with a warning', async () => {
    const dup = (first: string, last: string): string =>
      `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: dups.example.com}\nspec:\n  group: example.com\n  scope: ${first}\n  scope: ${last}\n  names: {plural: dups, singular: dup, kind: Dup, listKind: DupList}\n  versions:\n  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}\n`;
    for (const [first, last] of [['Global', 'Namespaced'], ['Namespaced', 'Global']] as const) {
      const server = await kubectl(['create', '--dry-run=server'], dup(first, last));
      const lint = await runCli(['lint', '-o', 'json', '-'], dup(first, last));
      const out = JSON.parse(lint.stdout) as JsonOutput;
      expect(server.stderr).not.toMatch(/already set|duplicate/);
      expect(out.findings.filter((f) => f.ruleId === 'parse').map((f) => f.severity)).toEqual(['warning']);
      if (last === 'Global') {
        expect(server.exitCode).toBe(1);
        expect(server.stderr).toContain('spec.scope: Unsupported value: "Global"');
        expect(out.findings.map((f) => f.message)).toContain(server.stderr.replace(/^.*? is invalid: /s, '').trim());
        expect(lint.code).toBe(1);
      } else {
        expect(server.exitCode).toBe(0);
        expect(lint.code).toBe(0);
      }
    }
  });

  const cases = [
    '{i: 1e400}',
    '{num: 1e400}',
    '{s: 1e400}',
    '{i: 9223372036854775807}',
    '{i: -9223372036854775808}',
    '{i: 9223372036854775808}',
    '{i: 18446744073709551615}',
    '{i: 99999999999999999999}',
    '{im: 9223372036854775807}',
    '{i53: 9007199254740993}',
    '{i53: 9007199254740992}',
    '{imin: -9223372036854775808}',
    '{num: 9223372036854775807}',
    '{i: 0x7FFFFFFFFFFFFFFF, s: 0x10}',
    '{free: {a: [9223372036854775807, 9007199254740993.0, 1e400]}}',
    '{free: {1: a, 1.5: b, 0x10: c, true: d, 1e20: e, 3.14159265358979: f, 010: g, 1e400: h, .inf: i, 1e6: j, 123456789.5: k, 9223372036854775807: l, y: n}}',
    // YAML 1.1 sexagesimal numbers are strings to go-yaml; 0o17 is an int to it
    '{s: 1:20, free: {a: 1:20, b: 0o17, c: 1_0, 0o17: x, d: -1:30.5}}',
    '{i: 0o17}',
    // floats go-yaml reads as float64 and kubectl sends with Go's JSON digits: an int64 when they fit
    '{i: 1e18}',
    '{i: 4.611686018427387904e18}',
    '{i: 9007199254740993.0}',
    '{i: -9223372036854775809}',
    '{num: 1e18}',
    '{free: {a: [1e18, -9223372036854775809, 4.611686018427387904e18, 1e21, 1.5e300]}}',
  ];
  for (const spec of cases) {
    it(`spec: ${spec}`, async () => {
      const server = await kubectl(['create', '--dry-run=server', '-o', 'json'], cr(spec));
      const text = `${CRD}---\n${cr(spec)}`;
      const def = await runCli(['default', '--no-explain', '-o', 'json', '-f', '-'], text);
      const lint = JSON.parse((await runCli(['lint', '-o', 'json', '-'], text)).stdout) as JsonOutput;
      const errors = lint.findings.filter((f) => f.severity === 'error').map((f) => f.message);
      if (server.exitCode === 0) {
        expect(errors).toEqual([]);
        // the same object, and every number written the same way (JS objects list integer-like keys
        // first, so the key order of the two texts may differ)
        expect(JSON.parse(def.stdout).spec).toEqual(JSON.parse(server.stdout).spec);
        expect(numbers(specText(def.stdout))).toEqual(numbers(specText(server.stdout)));
        expect(def.code).toBe(0);
      } else {
        expect(new Set(errors)).toEqual(new Set(kubectlCauses(server.stderr)));
        expect(def.code).toBe(1);
      }
    });
  }

  it('a uint64 key: kubectl cannot convert it, lint says so with a position', async () => {
    const server = await kubectl(['create', '--dry-run=server'], cr('{free: {18446744073709551615: a}}'));
    expect(server.exitCode).toBe(1);
    expect(server.stderr).toContain('unsupported map key of type: uint64');
    const lint = JSON.parse((await runCli(['lint', '-o', 'json', '-'], `${CRD}---\n${cr('{free: {18446744073709551615: a}}')}`)).stdout) as JsonOutput;
    const line = `${CRD}---\n`.split('\n').length + 3; // the spec line of the custom resource
    expect(lint.findings).toEqual([expect.objectContaining({ ruleId: 'parse', fatal: true, line, column: 15, message: expect.stringContaining('unsupported map key of type: uint64') })]);
  });
});

/**
 * int64s beyond 2^53 in a CRD's own schema: its JSON values (default, enum, example) keep them exact
 * (the server decodes them with k8s.io/apimachinery's json, int64 where it fits), its bounds are
 * float64. Each case is a CRD the real server creates or refuses, then, when created, a custom
 * resource its defaulting and validation meet.
 */
describe.skipIf(!RUN)('int64s beyond 2^53 in a CRD schema: kubectl and the real server against lint and default', () => {
  const s = useServer();
  const kubectl = (args: string[], input: string) => kubectlAt(s.h, args, input);

  const bigCrd = (n: number, prop: string): string =>
    crdYaml(`big${n}s`, `Big${n}`, `        type: object
        properties:
          spec:
            type: object
            properties:
              a: ${prop}
`);
  const bigCr = (n: number, spec: string): string => `apiVersion: example.com/v1\nkind: Big${n}\nmetadata: {name: x, namespace: default}\nspec: ${spec}\n`;

  const cases: [prop: string, spec: string][] = [
    ['{type: integer, default: 9223372036854775807}', '{}'],
    ['{type: integer, format: int64, default: 9223372036854775807}', '{}'],
    ['{type: integer, default: -9223372036854775808}', '{}'],
    ['{type: integer, default: 9007199254740993}', '{}'],
    ['{type: integer, default: 9223372036854775808}', '{}'],
    ['{type: number, default: 9007199254740993}', '{}'],
    ['{type: integer, format: int64, maximum: 9223372036854775807}', '{a: 5}'],
    ['{type: integer, format: int64, maximum: 9223372036854775807, default: 5}', '{}'],
    ['{type: integer, maximum: 9007199254740992, default: 9007199254740993}', '{}'],
    ['{type: integer, enum: [9007199254740993, 1]}', '{a: 9007199254740993}'],
    ['{type: integer, enum: [9007199254740993, 1]}', '{a: 9007199254740992}'],
    ['{type: integer, enum: [9007199254740993], default: 9007199254740993}', '{}'],
    ['{type: integer, example: 9223372036854775807}', '{a: 1}'],
    ['{type: object, x-kubernetes-preserve-unknown-fields: true, default: {n: [9223372036854775807, 9007199254740993]}}', '{}'],
    ['{type: integer, multipleOf: 3, default: 9007199254740993}', '{}'],
    ['{type: integer, default: 1e18}', '{}'],
    ['{type: integer, default: -9223372036854775809}', '{}'],
    ['{type: integer, enum: [4.611686018427387904e18]}', '{a: 4611686018427388000}'],
    ['{type: integer, x-kubernetes-validations: [{rule: "self > 9007199254740992"}], default: 9007199254740993}', '{}'],
  ];
  cases.forEach(([prop, spec], i) => {
    it(`${prop} with spec ${spec}`, async () => {
      const crd = bigCrd(i, prop);
      const created = await kubectl(['create'], crd);
      const crdLint = JSON.parse((await runCli(['lint', '-o', 'json', '-'], crd)).stdout) as JsonOutput;
      const crdErrors = crdLint.findings.filter((f) => f.severity === 'error').map((f) => f.message);
      if (created.exitCode !== 0) {
        // kubectl trims each cause it prints (a go-openapi message may end with a space)
        expect(new Set(crdErrors.map((m) => m.trim()))).toEqual(new Set(kubectlCauses(created.stderr)));
        return;
      }
      expect(crdErrors).toEqual([]);
      expect(await waitEstablished(s.h, `big${i}s.example.com`)).toBeDefined();
      const server = await kubectl(['create', '--dry-run=server', '-o', 'json'], bigCr(i, spec));
      const text = `${crd}---\n${bigCr(i, spec)}`;
      const def = await runCli(['default', '--no-explain', '-o', 'json', '-f', '-'], text);
      const lint = JSON.parse((await runCli(['lint', '-o', 'json', '-'], text)).stdout) as JsonOutput;
      const errors = lint.findings.filter((f) => f.severity === 'error').map((f) => f.message);
      if (server.exitCode === 0) {
        expect(errors).toEqual([]);
        expect(JSON.parse(def.stdout).spec).toEqual(JSON.parse(server.stdout).spec);
        expect(numbers(specText(def.stdout))).toEqual(numbers(specText(server.stdout)));
        expect(def.code).toBe(0);
      } else {
        expect(new Set(errors)).toEqual(new Set(kubectlCauses(server.stderr)));
        expect(def.code).toBe(1);
      }
    });
  });
});

/**
 * The text of `default -o yaml` and `-o json` is the text kubectl prints for the server's answer
 * (`kubectl create --dry-run=server -o yaml|json`) once the metadata the server generates is taken
 * out: key order (byte order in JSON, go-yaml's natural order in YAML, integer-like keys included),
 * escaping, number and string forms, sequence indentation.
 */
describe.skipIf(!RUN)('default prints what kubectl prints', () => {
  const s = useServer((h) => createCrd(h, crd, 'texts.example.com'));
  const kubectl = (args: string[], input: string) => kubectlAt(s.h, args, input, true);
  const crd = crdYaml(`texts`, `Text`, `        type: object
        properties:
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
            properties:
              defaulted: {type: string, default: "a&b"}
              list: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true}, default: [{z: 1, a: [x, y]}]}
`);

  const specs = [
    '{item10: 1, item2: 2, item02: 3, a1b: 0, a01b: 0, foo_bar: 1, fooBar: 2, Zed: 3, zed: 4, "-x": 5, "10": a, "2": b, "0": c, "": d, é: e, "9a": f, ".": g}',
    '{s: "<tag> & more", u: "\\u2028 \\u00e9 \\U0001F600 \\t tab", multi: "one\\ntwo\\n", strip: "one\\ntwo", lead: " x", colon: "a: b", hash: "a #b", star: "*x", yes: "yes", num: "123", nul: "null", empty: ""}',
    '{f: 1.5, e: 1e21, small: 0.000001, smaller: 1e-7, neg: -0.5, int: 42, big: 9223372036854775807, z: 0, t: true, nested: {b: {}, a: []}}',
    '{list: [{b: 2, a: 1, c: [1, [2]], d: "x"}, {}]}',
    // folding past column 80 (plain, single- and double-quoted), long and multi-line keys
    `{long: "${'word '.repeat(30)}end", longq: "&${'word '.repeat(30)}end", longd: "\\t ${'word '.repeat(30)}  two  spaces ${'x '.repeat(40)}", ${'k'.repeat(130)}: 1, "multi\\nkey": 2}`,
    // block scalars: keep, strip, clip, leading space, trailing spaces, a line with only spaces
    '{keep: "a\\n\\n", strip: "a\\nb", clip: "a\\nb\\n", lead: " a\\nb\\n", trail: "a  \\nb\\n", blank: "a\\n  \\nb\\n", onlybreak: "\\n", crlf: "a\\r\\nb"}',
    // strings that would read back as another type, or nearly
    '{a: "0o17", b: "08", c: "1_000", d: "+1", e: ".5", f: "1:20", g: "<<", h: "~", i: "Yes", j: "2024-01-02", k: "2024-1-2 3:04:05", l: "2024-13-01", m: "1e5", n: "0x1F", o: ".inf", p: "-", q: "- x", r: "a:b", s: "?x", t: "@x", u: "!x", v: "%x", w: "x #y", x: "x#y", y: "---", z: "...x", aa: "12e", ab: "1.", ac: "0b101", ad: "99999999999999999999", ae: "NaN", af: "\\u00a0", ah: "a\\u0085b", ai: "a \\u0085 \\u0085b\\u0085"}',
    '{f1: 1234567.5, f2: 123456.5, f3: 0.00001, f4: 0.0001, f5: 1e20, f6: 12345678901234567890, f7: -1.5e-10, f8: 100.25, f9: 3.0}',
  ];
  specs.forEach((spec, i) => {
    const cr = `apiVersion: example.com/v1\nkind: Text\nmetadata: {name: t${i}, namespace: default, labels: {b: "1", a: "2"}, annotations: {z: "&"}}\nspec: ${spec}\n`;
    for (const format of ['yaml', 'json'] as const) {
      it(`-o ${format}: ${spec}`, async () => {
        const server = await kubectl(['create', '--dry-run=server', '-o', format], cr);
        expect(server.exitCode, server.stderr).toBe(0);
        const ours = await runCli(['default', '--no-explain', '-o', format, '-f', '-'], `${crd}---\n${cr}`);
        expect(ours.code, ours.stderr).toBe(0);
        expect(ours.stdout).toBe(withoutServerMeta(server.stdout));
      });
    }
  });
});

/**
 * Every corpus sample with its project's CRDs installed: the text of `default -o yaml|json` for
 * each of its documents is kubectl's for `kubectl create --dry-run=server` of that document (once
 * the metadata the server generates is taken out); a document the server rejects is rejected too.
 */
describe.skipIf(!RUN || !HAVE_CORPUS)('default prints what kubectl prints: corpus samples', () => {
  const s = useServer();
  const kubectl = (args: string[], input: string) => kubectlAt(s.h, args, input, true);
  let compared = 0;
  afterAll(() => {
    console.log(`conformance tally (default text): ${compared} sample documents x 2 formats printed as kubectl prints them`);
  });
  const crdsOf = new Map<string, string[]>();
  for (const f of corpusFiles('crds')) crdsOf.set(f.project, [...(crdsOf.get(f.project) ?? []), f.path]);
  const samples = corpusFiles('samples');
  for (const project of [...new Set(samples.map((s) => s.project))]) {
    describe(project, () => {
      beforeAll(async () => {
        await deleteAllCRDs(s.h);
        for (const p of crdsOf.get(project) ?? []) {
          const r = await kubectl(['create'], readFileSync(p, 'utf8'));
          // some projects ship the same CRD in two files
          if (!r.stderr.includes('AlreadyExists')) expect(r.exitCode, r.stderr).toBe(0);
        }
        for (const p of crdsOf.get(project) ?? [])
          for (const d of parseFile({ path: p, text: readFileSync(p, 'utf8') }))
            for (const m of d.manifests) if (m.kind === 'CustomResourceDefinition' && m.name) await waitEstablished(s.h, m.name);
      }, 300_000);
      for (const s of samples.filter((x) => x.project === project)) {
        const docs = s.text.split(/^---[ \t]*$/m).filter((t) => /^kind:/m.test(t));
        docs.forEach((doc, i) => {
          it(`${s.path.split('/samples/').pop()} #${i}`, async () => {
            const crdArgs = (crdsOf.get(project) ?? []).flatMap((p) => ['--crd', p]);
            for (const format of ['yaml', 'json'] as const) {
              const server = await kubectl(['create', '--dry-run=server', '-o', format], doc);
              const ours = await runCli(['default', '--no-explain', '-o', format, '-f', '-', ...crdArgs], doc);
              if (server.exitCode !== 0) {
                expect(ours.code, `${server.stderr}\n${ours.stdout}`).not.toBe(0);
                return;
              }
              const md = (parseFile({ path: 'doc.yaml', text: doc })[0]?.manifests[0]?.value['metadata'] ?? {}) as Record<string, unknown>;
              let sent = server.stdout;
              // kubectl sends a document without a namespace to its context's namespace
              if (md['namespace'] === undefined) sent = sent.replace(/^ {2}namespace: default\n|^ {8}"namespace": "default",?\n/m, '');
              // the server makes a name from generateName, which default leaves out
              if (md['name'] === undefined) sent = sent.replace(/^ {2}name: .*\n|^ {8}"name": ".*",?\n/m, '');
              expect(ours.stdout).toBe(withoutServerMeta(sent));
            }
            compared++;
          });
        });
      }
    });
  }
});

/**
 * A CEL rule that selects a field the object does not set fails to evaluate on the server
 * (`no such key: X evaluating rule: …`); lint reports the same cause, with the key cel-go reports
 * (the left one when both operands of `||`/`&&` fail), and an index past the end of a list the same
 * way, and an error inside a comprehension over a list too.
 */
describe.skipIf(!RUN)('CEL rules that select a missing field: kubectl and the real server against lint', () => {
  const s = useServer((h) => createCrd(h, crd, 'keys.example.com'));
  const kubectl = (args: string[], input: string) => kubectlAt(s.h, args, input);
  const rules: [string, string][] = [
    ['self.a > 0', ''],
    ['size(self.l) > 0 || size(self.m) > 0', 'l or m'],
    ['self.a > 0 && self.b > 0', ''],
    ["self.s == 'x' ? self.a > 0 : self.b > 0", 'branch'],
    ["self.m['k'] == 'v'", ''],
    ['self.o.p == 1', 'nested'],
    ['has(self.a) ? self.a > 0 : true', ''],
    ['self.c > 0 || self.a > 0', ''],
    ['!(self.a > 0) || self.c == 5', ''],
    ['self.l[3] == 1', 'index'],
    ['self.items.all(i, i.q > 0)', 'macro'],
  ];
  const crd = crdYaml(`keys`, `Key`, `        type: object
        properties:
${rules
  .map(
    ([rule, message], i) => `          r${i}:
            type: object
            properties:
              a: {type: integer}
              b: {type: integer}
              c: {type: integer}
              s: {type: string}
              l: {type: array, items: {type: integer}, maxItems: 10}
              m: {type: object, additionalProperties: {type: string}, maxProperties: 10}
              o: {type: object, properties: {p: {type: integer}}}
              items: {type: array, maxItems: 10, items: {type: object, properties: {q: {type: integer}}}}
            x-kubernetes-validations:
            - rule: ${JSON.stringify(rule)}${message ? `\n              message: ${message}` : ''}`,
  )
  .join('\n')}
`);
  const values = ['{}', '{s: x}', "{s: 'y', c: 5}", '{a: 1, o: {}}', '{l: [1], m: {}}', '{m: {k: v}, o: {p: 1}, items: [{q: 1}, {}]}'];
  rules.forEach(([rule], i) => {
    it(`rule ${rule}`, async () => {
      for (const v of values) {
        const cr = `apiVersion: example.com/v1\nkind: Key\nmetadata: {name: k${i}, namespace: default}\nr${i}: ${v}\n`;
        const server = await kubectl(['create', '--dry-run=server'], cr);
        const out = JSON.parse((await runCli(['lint', '-o', 'json', '-'], `${crd}---\n${cr}`)).stdout) as JsonOutput;
        const errors = out.findings.filter((f) => f.severity === 'error').map((f) => f.message.trim());
        const theirs = server.exitCode === 0 ? [] : kubectlCauses(server.stderr);
        expect(new Set(errors), `${v}\n${server.stderr}`).toEqual(new Set(theirs));
      }
    });
  });
});

/**
 * An integral float beyond 2^53 (`1e18`, `4.611686018427387904e18`) is a float64 to go-yaml, which
 * kubectl sends with Go's shortest JSON digits (4611686018427388000): the server binds the int64
 * those digits are to a rule, or, beyond int64 (-9223372036854775809), refuses a float64 integer.
 */
describe.skipIf(!RUN)('integral floats beyond 2^53 read by CEL rules: kubectl and the real server against lint', () => {
  const s = useServer((h) => createCrd(h, crd, 'floats.example.com'));
  const kubectl = (args: string[], input: string) => kubectlAt(s.h, args, input);
  const crd = crdYaml(`floats`, `Float`, `        type: object
        properties:
          spec:
            type: object
            properties:
              i: {type: integer}
              x: {x-kubernetes-int-or-string: true}
            x-kubernetes-validations:
            - rule: "!has(self.i) || self.i == 0"
              messageExpression: "string(self.i)"
            - rule: "!has(self.x) || self.x == 0"
              messageExpression: "string(self.x)"
`);
  for (const spec of ['{i: 1e18}', '{i: 4.611686018427387904e18}', '{i: 9007199254740993.0}', '{i: -9223372036854775809}', '{i: -9.3e18}', '{x: 1e18}', '{x: 9.2233720368547758e18}']) {
    it(`spec: ${spec}`, async () => {
      const cr = `apiVersion: example.com/v1\nkind: Float\nmetadata: {name: f, namespace: default}\nspec: ${spec}\n`;
      const server = await kubectl(['create', '--dry-run=server'], cr);
      const out = JSON.parse((await runCli(['lint', '-o', 'json', '-'], `${crd}---\n${cr}`)).stdout) as JsonOutput;
      expect(server.exitCode, server.stderr).toBe(1);
      expect(out.findings.filter((f) => f.ruleId === 'cel-not-evaluated')).toEqual([]);
      expect(new Set(out.findings.filter((f) => f.severity === 'error').map((f) => f.message.trim()))).toEqual(new Set(kubectlCauses(server.stderr)));
    });
  }
});
