/**
 * The fast YAML path (src/manifest/fast.ts) against the full path (the yaml package): on every fixture and
 * corpus file, and on snippets at the edges of what the fast path takes, the documents, their values (with
 * their types) and the positions of every path must be the same. The fuzz suite does the same on mutated
 * manifests (test/fuzz/fuzz.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastDocuments, lastGiveUp, MAYBE_NOT_STRING, unsupportedAt } from '../../src/manifest/fast.js';
import { locateCounts, MAX_DEPTH, parseFile, plainScalarValue } from '../../src/manifest/parse.js';
import { compareParse } from '../helpers/compare-parse.js';
import { CORPUS, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { yamlFiles } from '../helpers/files.js';

const ROOT = join(import.meta.dirname, '..', '..');

function fast(text: string): boolean {
  return fastDocuments(text, plainScalarValue, MAX_DEPTH) !== undefined;
}

/** What unsupportedAt (fast.ts) finds, as one regular expression. */
const UNSUPPORTED =
  /\r(?!\n)|[\uFEFF\u2028\u2029\u0085]|^ *\t|^%|^\.\.\.(?=[ \t\r\n]|$)|^---[^ \t\r\n]|^[ \t]*(?:-[ \t]+)*-[ \t]*(?:#.*)?\r?$|(?:^|[ \t\r\n[{,?:-])&(?!&[ \t\r\n])[^ \t\r\n,[\]{}]/m;

describe('text the fast path does not take', () => {
  it('is what the regular expression says, on the fixtures, the corpus and mutated lines', () => {
    const texts = [...yamlFiles(join(ROOT, 'fixtures')), ...(HAVE_CORPUS ? [...yamlFiles(join(CORPUS, 'crds')), ...yamlFiles(join(CORPUS, 'samples'))] : [])].map((f) =>
      readFileSync(f, 'utf8'),
    );
    const pieces = ['\n', '\r\n', '\r', ' ', '\t', '-', '- ', '#', '&', '&&', '&a', '...', '---', '%', 'a', ':', '[', '{', ',', '\uFEFF', '\u2028', '\u0085'];
    let seed = 3;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
    for (let i = 0; i < 20_000; i++) texts.push(Array.from({ length: 1 + rnd(8) }, () => pieces[rnd(pieces.length)]).join(''));
    let found = 0;
    for (const t of texts) {
      expect(unsupportedAt(t) >= 0, JSON.stringify(t.length < 200 ? t : t.slice(0, 200))).toBe(UNSUPPORTED.test(t));
      if (unsupportedAt(t) >= 0) found++;
    }
    expect(found).toBeGreaterThan(1000);
  });
});

describe('plain scalars the fast path takes as strings without asking the full path', () => {
  it('are strings for the full path too', () => {
    const texts = ['.spec.replicas', '.status.conditions[?(@.type=="Ready")].status', '.metadata.name', '.a', '.x1', '.items', '.inf', '.Inf', '.INF', '.nan', '.NaN', '.NAN', '.infinity', '.nanx', '.e5', '.E+1', '.5', '._5', '.', '..', '.1.2', '.5e3', '.e', '.Infx'];
    const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+eE[]()@"';
    let seed = 5;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
    for (let i = 0; i < 3000; i++) texts.push(`.${Array.from({ length: 1 + rnd(6) }, () => letters[rnd(letters.length)]).join('')}`);
    let strings = 0;
    for (const t of texts) {
      if (MAYBE_NOT_STRING.test(t)) continue;
      strings++;
      // what the full path reads for the same scalar in value position
      expect(plainScalarValue(t), t).toEqual({ value: t });
    }
    expect(strings).toBeGreaterThan(2000);
    for (const t of ['.inf', '.NaN', '.5', '.e5', '.']) expect(MAYBE_NOT_STRING.test(t), t).toBe(true);
  });
});

describe('fast YAML path = full path', () => {
  it('on every fixture (documents, values with their types, positions)', () => {
    const files = yamlFiles(join(ROOT, 'fixtures'));
    expect(files.length).toBeGreaterThan(100);
    let taken = 0;
    for (const f of files) {
      const r = compareParse({ path: f, text: readFileSync(f, 'utf8') });
      expect(r.differences, f).toEqual([]);
      if (r.fast) taken++;
    }
    // the comparison is worth something only when the fast path reads most of them
    expect(taken / files.length).toBeGreaterThan(0.9);
  });

  it.skipIf(!HAVE_CORPUS)(`on every corpus file${HAVE_CORPUS ? '' : ` (${NO_CORPUS_REASON})`}`, { timeout: 120_000 }, () => {
    const files = [...yamlFiles(join(CORPUS, 'crds')), ...yamlFiles(join(CORPUS, 'samples'))];
    let taken = 0;
    locateCounts.fast = locateCounts.yaml = 0;
    for (const f of files) {
      const r = compareParse({ path: f, text: readFileSync(f, 'utf8') }, { maxPaths: 150 });
      expect(r.differences, f).toEqual([]);
      if (r.fast) taken++;
    }
    expect(taken / files.length).toBeGreaterThan(0.9);
    // and most positions came from js-yaml's offsets (fast-locate.ts), not from a second read
    expect(locateCounts.fast / (locateCounts.fast + locateCounts.yaml)).toBeGreaterThan(0.9);
  });

  it('on large files read document by document, and on large documents read on demand', () => {
    const doc = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  k: "${'x'.repeat(200)}"\n  n: '${i}'\n`;
    const text = Array.from({ length: 50 }, (_, i) => doc(i)).join('---\n');
    for (const largeBytes of [1000, 100_000]) expect(compareParse({ path: 'big.yaml', text }, { largeBytes }).differences).toEqual([]);
  });

  // [snippet, taken by the fast path]
  const cases: [string, string, boolean][] = [
    ['plain manifest', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: b\n', true],
    ['canonical scalars', 'apiVersion: v1\nkind: X\nspec:\n  a: true\n  b: false\n  c: null\n  d: ~\n  e:\n  f: 42\n  g: -7\n  h: 0\n  i: 9007199254740991\n', true],
    ['YAML 1.1 scalars resolved by the full path', 'apiVersion: v1\nkind: X\nspec:\n  a: yes\n  b: Off\n  c: 0x1F\n  d: 017\n  e: 1.5\n  f: 1e3\n  g: 1.0\n  h: 1:20\n  i: 0o17\n  j: 2024-01-01\n  k: -.5\n  l: 1_000\n  m: "yes"\n  o: =\n', true],
    ['an integer beyond 2^53 (exact in the full path)', 'apiVersion: v1\nkind: X\nspec:\n  a: 9223372036854775807\n', false],
    ['.nan (a problem in the full path)', 'apiVersion: v1\nkind: X\nspec:\n  a: .nan\n', false],
    ['.inf (a problem in the full path)', 'apiVersion: v1\nkind: X\nspec:\n  a: -.inf\n', false],
    ['1e400 (a string to go-yaml)', 'apiVersion: v1\nkind: X\nspec:\n  a: 1e400\n', true],
    ['integer and boolean keys', 'apiVersion: v1\nkind: X\ndata:\n  80: http\n  true: t\n  -1: m\n', true],
    ['keys the full path converts', 'apiVersion: v1\nkind: X\ndata:\n  yes: a\n', false],
    ['a float key', 'apiVersion: v1\nkind: X\ndata:\n  1.5: a\n', false],
    ['a null key', 'apiVersion: v1\nkind: X\ndata:\n  ~: a\n', false],
    ['an empty key', 'apiVersion: v1\nkind: X\ndata:\n  : a\n', false],
    ['a flow sequence key', 'apiVersion: v1\nkind: X\ndata:\n  [a, b]: c\n', false],
    ['an explicit mapping key', 'apiVersion: v1\nkind: X\ndata:\n  ? {a: 1}\n  : c\n', false],
    ['a merge key', 'apiVersion: v1\nkind: X\nbase: {a: 1}\ndata:\n  <<: {a: 1}\n', false],
    ['an anchor and alias', 'apiVersion: v1\nkind: X\nspec:\n  a: &x {b: 1}\n  c: *x\n', false],
    ['CEL && is not an anchor', "apiVersion: v1\nkind: X\nspec:\n  rule: 'self.a && self.b'\n", true],
    ['an explicit tag', 'apiVersion: v1\nkind: X\nspec:\n  a: !!str 1\n', false],
    ['a local tag', 'apiVersion: v1\nkind: X\nspec:\n  a: !foo 1\n', false],
    ['duplicate keys', 'apiVersion: v1\nkind: X\nspec:\n  a: 1\n  a: 2\n', false],
    ['__proto__', 'apiVersion: v1\nkind: X\nspec:\n  __proto__: 1\n', false],
    ['a directive', '%YAML 1.1\n---\napiVersion: v1\nkind: X\n', false],
    ['a document end marker', 'apiVersion: v1\nkind: X\n...\n', false],
    ['a lone carriage return', 'apiVersion: v1\r\rkind: X\r\n', false],
    ['CRLF line ends', 'apiVersion: v1\r\nkind: X\r\nspec:\r\n  a: "b"\r\n', true],
    ['tabs inside scalars', 'apiVersion: v1\nkind: X\nspec:\n  a: "b\\tc"\n  d: |\n    x\ty\n', true],
    ['`---` glued to what follows (not a document start for go-yaml)', '---{a: {b: 1}}\n', false],
    ['byte order marks inside the text', 'apiVersion: v1\nkind: X\n\uFEFF\uFEFF# c\nspec: {}\n---\n\uFEFFapiVersion: v1\nkind: Y\n', false],
    ['a tab starting a line', '\t---\napiVersion: v1\nkind: X\n', false],
    ['a tab in the indentation of a blank line', 'apiVersion: v1\nkind: X\nspec:\n  a: 1\n   \t  \n  b: 2\n', false],
    ['empty documents', '---\n---\napiVersion: v1\nkind: X\n---\n# only a comment\n', true],
    ['comments only', '# nothing\n\n# here\n', true],
    ['a scalar document', 'hello\n', false],
    ['a sequence document', '- a\n- b\n', false],
    ['a List', 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: X\n- apiVersion: v1\n  kind: Y\n', true],
    // read by js-yaml, then left to the full path (parse.ts), which reports the item
    ['a List with a scalar item', 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: X\n- 3\n', true],
    ['multi-line quoted scalars indented past their key', "apiVersion: v1\nkind: X\nspec:\n  a: 'one\n    two'\n  b: \"three\n    four\"\n  c:\n  - 'five\n    six'\n", true],
    ['a quoted continuation line not past its key (go-yaml takes it, the full path relaxes)', "apiVersion: v1\nkind: X\nspec:\n  a: 'one\n  two'\n", false],
    ['a flow sequence over lines', 'apiVersion: v1\nkind: X\nspec:\n  args: [\n    "a",\n  ]\n', false],
    ['brackets and quotes inside block scalars', 'apiVersion: v1\nkind: X\ndata:\n  rego: |\n    x := ["a",\n    "b\n    }\n  next: 1\n', true],
    ['flow collections on one line', "apiVersion: v1\nkind: X\nspec:\n  a: [1, 'x', {b: c}]\n  d: {}\n  e: []\n", true],
    ['deep nesting', `apiVersion: v1\nkind: X\nspec: ${'['.repeat(1200)}${']'.repeat(1200)}\n`, false],
    ['multi-line plain scalars', 'apiVersion: v1\nkind: X\nspec:\n  a: one\n    two\n\n    three\n', true],
    ['comments, blank lines and empty values around the nodes a position ends', 'apiVersion: v1\nkind: X\nspec:\n  a:\n    - 1  # one\n    # gone\n\n    - 2\n  # tail\n  b: x   # c\n\n  c: {d: [1, 2]}  \n  e:\n  h: \n  f: |+\n    keep\n\n  g: \'q\'\n  i:\n    j: |\n      text\n      \n  k: "x"\n# end\n', true],
    ['CRLF line breaks', 'apiVersion: v1\r\nkind: X\r\nspec:\r\n  a: |\r\n    x\r\n\r\n  b:\r\n  - 1\r\n  - c: d  \r\n  e: "f"\r\n', true],
    ['compact nested sequences and mappings', 'apiVersion: v1\nkind: X\nspec:\n  a:\n  - - 1\n    - 2\n  - b: 1\n    c:\n      - d\n  - - - e\n  - ""\n', true],
    ['an empty sequence entry (js-yaml reads on at a lesser indentation)', 'apiVersion: v1\nkind: X\nspec:\n  a:\n    -\n- - 1\n', false],
    ['a sequence entry whose value is on the next line', 'apiVersion: v1\nkind: X\nspec:\n  a:\n    -  # c\n      b\n    - c\n', false],
    ['no line break at the end', 'apiVersion: v1\nkind: X\nspec:\n  a: [1]\n  b: |\n    x', true],
    ['a list, its items located through it', 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: X\n  metadata:\n    name: a\n  spec: {x: 1}\n- apiVersion: v1\n  kind: Y\n  spec:\n    z:\n      - 1\n', true],
    ['multi-line plain and quoted scalars', 'apiVersion: v1\nkind: X\nspec:\n  a: one\n    two\n\n    three\n  b: "one\n    two"\n  c: \'x\n\n    y\'  # c\n  d:\n    e\n', true],
    ['block scalars with indicators', 'apiVersion: v1\nkind: X\nspec:\n  a: |-\n    x\n  b: >+\n    y\n    z\n\n  c: |2\n      indented\n', true],
  ];
  for (const [name, text, taken] of cases) {
    it(`${name}: ${taken ? 'fast path' : 'full path'}, same result`, () => {
      expect(fast(text), lastGiveUp).toBe(taken);
      expect(compareParse({ path: 't.yaml', text }).differences).toEqual([]);
    });
  }

  it('a document the fast path read still has positions, from the full path, read once', () => {
    const text = 'apiVersion: v1\nkind: X\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Y\nspec:\n  deep:\n    field: 1\n';
    const docs = parseFile({ path: 't.yaml', text }, { fast: true });
    expect(fast(text)).toBe(true);
    expect(docs[1]!.manifests[0]!.locate(['spec', 'deep', 'field'])).toMatchObject({ line: 10, column: 12 });
    expect(docs[1]!.manifests[0]!.locate(['spec', 'deep', 'field'], 'key')).toMatchObject({ line: 10, column: 5 });
    expect(docs[0]!.manifests[0]!.locate(['metadata', 'name'])).toMatchObject({ line: 4, column: 9 });
  });
});
