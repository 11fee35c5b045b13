/**
 * The one-pass block reader (src/manifest/block-reader.ts), the fast path's first reader: what it takes
 * must be read exactly as the full path reads it (values with their types, and positions, through
 * compareParse) and as js-yaml's reader reads it; what it does not take goes to the other readers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readBlockChunks } from '../../src/manifest/block-reader.js';
import { fastDocuments, useBlockReader } from '../../src/manifest/fast.js';
import { MAX_DEPTH, plainScalarValue } from '../../src/manifest/parse.js';
import { splitDocuments } from '../../src/manifest/split.js';
import { compareParse } from '../helpers/compare-parse.js';
import { CORPUS, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { yamlFiles } from '../helpers/files.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Check {
  /** Chunks the block reader took, and their bytes. */
  readonly taken: number;
  readonly takenBytes: number;
  readonly bytes: number;
  readonly differences: string[];
}

/** The block reader against js-yaml's reader (chunk by chunk) and the fast path against the full path. */
function check(path: string, raw: string, maxPaths?: number): Check {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const chunks = splitDocuments(text);
  const block = readBlockChunks(chunks, plainScalarValue, MAX_DEPTH);
  const was = useBlockReader(false);
  const js = fastDocuments(text, plainScalarValue, MAX_DEPTH);
  useBlockReader(was);
  const differences = [...compareParse({ path, text: raw }, maxPaths !== undefined ? { maxPaths } : {}).differences];
  let taken = 0;
  let takenBytes = 0;
  for (const [i, v] of block.entries()) {
    if (v === undefined) continue;
    taken++;
    takenBytes += chunks[i]!.text.length;
    if (js !== undefined && !isDeepStrictEqual(v, js[i]!.value)) differences.push(`chunk ${i}: block reader ${JSON.stringify(v)} js-yaml ${JSON.stringify(js[i]!.value)}`);
  }
  return { taken, takenBytes, bytes: text.length, differences };
}

describe('block reader = js-yaml reader = full path', () => {
  it('on every fixture', () => {
    let taken = 0;
    let chunks = 0;
    for (const f of yamlFiles(join(ROOT, 'fixtures'))) {
      const text = readFileSync(f, 'utf8');
      const r = check(f, text);
      expect(r.differences, f).toEqual([]);
      taken += r.taken;
      chunks += splitDocuments(text).length;
    }
    expect(taken / chunks).toBeGreaterThan(0.85);
  });

  it.skipIf(!HAVE_CORPUS)(`on every corpus file${HAVE_CORPUS ? '' : ` (${NO_CORPUS_REASON})`}`, { timeout: 180_000 }, () => {
    let takenBytes = 0;
    let bytes = 0;
    for (const f of [...yamlFiles(join(CORPUS, 'crds')), ...yamlFiles(join(CORPUS, 'samples'))]) {
      const r = check(f, readFileSync(f, 'utf8'), 100);
      expect(r.differences, f).toEqual([]);
      takenBytes += r.takenBytes;
      bytes += r.bytes;
    }
    // generated CRDs are plain block YAML: the reader must take nearly all of it to be worth having
    expect(takenBytes / bytes).toBeGreaterThan(0.85);
  });

  // [name, text, taken by the block reader]
  const cases: [string, string, boolean][] = [
    ['plain manifest', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: b\n', true],
    ['a marker, comments and blank lines first', '# head\n\n---  # c\n# more\napiVersion: v1\nkind: X\n', true],
    ['text after the marker', '--- a\napiVersion: v1\n', false],
    ['keys that are words of the prototype', 'apiVersion: v1\nkind: X\nspec:\n  constructor: 1\n  toString: a\n  hasOwnProperty: [b]\n  valueOf: {}\n', true],
    ['__proto__', 'apiVersion: v1\nkind: X\nspec:\n  __proto__: 1\n', false],
    ['__proto__ quoted in a flow mapping', 'apiVersion: v1\nkind: X\nspec: {"__proto__": 1}\n', false],
    ['a duplicate key', 'apiVersion: v1\nkind: X\nspec:\n  a: 1\n  a: 1\n', false],
    ['a duplicate key in a flow mapping', 'apiVersion: v1\nkind: X\nspec: {a: 1, a: 2}\n', false],
    ['canonical and YAML 1.1 scalars', 'apiVersion: v1\nkind: X\nspec:\n  a: true\n  b: ~\n  c:\n  d: 12\n  e: -7\n  f: yes\n  g: 0x1F\n  h: 1.5\n  i: 2024-01-01\n  j: =\n  k: -foo\n  l: --flag=1\n', true],
    ['keys YAML 1.1 reads otherwise', 'apiVersion: v1\nkind: X\ndata:\n  on: a\n', false],
    ['indentless and compact sequences', 'apiVersion: v1\nkind: X\nspec:\n  a:\n  - 1\n  - b: 2\n    c:\n    - d\n  - - e\n    - - f\n  g: h\n', true],
    ['a sequence entry value on the next line', 'apiVersion: v1\nkind: X\nspec:\n  a:\n  -\n    b\n', false],
    ['an empty entry', 'apiVersion: v1\nkind: X\nspec:\n  a:\n  - # c\n  - b\n', false],
    ['comments everywhere', 'apiVersion: v1 # c\nkind: X\n# c\nspec:   # c\n    # deeper\n  a: b # c\n  # c\n  c:\n  # c\n  - 1 # c\n        # c\n  - "x" # c\n  d: [1, 2] # c\n', true],
    ['a comment, then a deeper line', 'apiVersion: v1\nkind: X\nspec:\n  a: b # c\n    d\n', false],
    ['multi-line plain scalars', 'apiVersion: v1\nkind: X\nspec:\n  a: one\n    two\n\n    three\n\n\n    four `x` [y] "z" \'w\' -v |u >t %s @r ,q {p}\n  b: c\n  d:\n  - e\n    f\n', true],
    ['a multi-line plain scalar YAML 1.1 could read otherwise', 'apiVersion: v1\nkind: X\nspec:\n  a: 1\n    2\n', false],
    ['a multi-line plain scalar with a key in it', 'apiVersion: v1\nkind: X\nspec:\n  a: one\n    two: x\n', false],
    ['a multi-line plain scalar cut by a comment line', 'apiVersion: v1\nkind: X\nspec:\n  a: one\n    # c\n    two\n', false],
    ['a multi-line plain scalar with lines starting with indicators', 'apiVersion: v1\nkind: X\nspec:\n  a: one\n    &two\n    && three\n    *four\n    !five\n    - six\n    ? seven\n    :eight\n', true],
    ['a multi-line plain scalar with a line starting with a colon', 'apiVersion: v1\nkind: X\nspec:\n  a: one\n    : two\n', false],
    ['multi-line quoted scalars', "apiVersion: v1\nkind: X\nspec:\n  a: 'one  \n     two''s\n\n     three'\n  b: \"one \\\"x\\\"\n    \\u00e9 \\x41\\tB\n\n\n    end\"  # c\n  c:\n  - 'x\n    y'\n", true],
    ['a quoted continuation line not deeper than its key', "apiVersion: v1\nkind: X\nspec:\n  a: 'one\n  two'\n", false],
    ['an escaped line break', 'apiVersion: v1\nkind: X\nspec:\n  a: "one\\\n    two"\n', false],
    ['a quoted scalar opening at the end of its line', "apiVersion: v1\nkind: X\nspec:\n  a: '\n    two'\n", false],
    ['escapes', 'apiVersion: v1\nkind: X\nspec:\n  a: "\\0\\a\\b\\e\\f\\n\\r\\t\\v\\N\\_\\L\\P\\ \\/\\\\\\"\\x7e\\u00e9\\U0001F600"\n', true],
    ['an invalid escape', 'apiVersion: v1\nkind: X\nspec:\n  a: "\\."\n', false],
    ['a surrogate escape', 'apiVersion: v1\nkind: X\nspec:\n  a: "\\ud83d\\ude00"\n', false],
    ['block scalars', 'apiVersion: v1\nkind: X\nspec:\n  a: |\n\n    one\n      two\n\n    three\n\n\n  b: |-\n    x\n    y\n  c: >\n\n    one\n    two\n\n    three\n  d: >-  # c\n    x\n    # not a comment\n  e:\n  - f: |\n      g\n# end\n', true],
    ['a folded scalar with a more-indented line', 'apiVersion: v1\nkind: X\nspec:\n  a: >\n    one\n      two\n', false],
    ['keep chomping', 'apiVersion: v1\nkind: X\nspec:\n  a: |+\n    one\n\n', false],
    ['an indentation indicator', 'apiVersion: v1\nkind: X\nspec:\n  a: |2\n     one\n', false],
    ['a block scalar with no line break at the end', 'apiVersion: v1\nkind: X\nspec:\n  a: |\n    one', false],
    ['an empty block scalar', 'apiVersion: v1\nkind: X\nspec:\n  a: |\n  b: 1\n', false],
    ['a blank line with more spaces than the block', 'apiVersion: v1\nkind: X\nspec:\n  a: |\n    one\n      \n    two\n', false],
    ['flow collections on one line', 'apiVersion: v1\nkind: X\nspec:\n  a: []\n  b: {}\n  c: ["sh", \'-c\', x y, 1, true, -z]\n  d: {"cpu": "1m", memory: 8Mi, list: [1, {o: p}]}\n  e:\n  - [a, b]\n  - {c: d}\n', true],
    ['a flow collection over lines', 'apiVersion: v1\nkind: X\nspec:\n  a: [1,\n    2]\n', false],
    ['a trailing comma', 'apiVersion: v1\nkind: X\nspec:\n  a: [1, 2,]\n', false],
    ['a pair in a flow sequence', 'apiVersion: v1\nkind: X\nspec:\n  a: [b: c]\n', false],
    ['a plain scalar with a colon in a flow', 'apiVersion: v1\nkind: X\nspec:\n  a: [http://x]\n', false],
    ['anchors, aliases and tags', 'apiVersion: v1\nkind: X\nspec:\n  a: &x 1\n  b: *x\n', false],
    ['a tag', 'apiVersion: v1\nkind: X\nspec:\n  a: !!str 1\n', false],
    ['a carriage return', 'apiVersion: v1\r\nkind: X\r\n', false],
    ['a tab in the indentation', 'apiVersion: v1\nkind: X\nspec:\n\ta: 1\n', false],
    ['a tab in a plain scalar', 'apiVersion: v1\nkind: X\nspec:\n  a: b\tc\n', false],
    ['tabs inside quoted and block scalars', 'apiVersion: v1\nkind: X\nspec:\n  a: "b\tc"\n  d: |\n    x\ty\n', true],
    ['a control character', 'apiVersion: v1\nkind: X\nspec:\n  a: "b\u0001c"\n', false],
    ['a document end marker', 'apiVersion: v1\nkind: X\n...\n', false],
    ['a root that is not a mapping', '- a\n', false],
    ['an indented root', '  apiVersion: v1\n  kind: X\n', false],
    ['a key with spaces', 'apiVersion: v1\nkind: X\nspec:\n  a b: c\n', false],
    ['quoted keys', 'apiVersion: v1\nkind: X\nmetadata:\n  annotations:\n    "a.io/b": c\n    \'it\'\'s\': d\n    "": e\n    "yes": f\nspec:\n- "g h":\n    i: 1\n  "j": 2\n', true],
    ['a quoted key and a plain key alike', 'apiVersion: v1\nkind: X\nspec:\n  a: 1\n  "a": 2\n', false],
    ['a quoted key glued to its value', 'apiVersion: v1\nkind: X\nspec:\n  "a":b\n', false],
    ['plain scalars starting with ? or -', 'apiVersion: v1\nkind: X\nspec:\n  a: ?*\n  b: ?x y\n  c: -1\n  d: --x\n', true],
    ['a bad indentation', 'apiVersion: v1\nkind: X\nspec:\n    a: 1\n  b: 2\n', false],
    ['a sequence after a value at the same indentation', 'apiVersion: v1\nkind: X\nspec:\n  a: 1\n  - b\n', false],
    ['a value and a deeper line', 'apiVersion: v1\nkind: X\nspec:\n  a: "x"\n    b: 1\n', false],
  ];
  for (const [name, text, taken] of cases) {
    it(`${name}: ${taken ? 'taken' : 'left to the other readers'}, same result`, () => {
      const r = check('t.yaml', text);
      expect(r.differences).toEqual([]);
      expect(r.taken === splitDocuments(text).length).toBe(taken);
    });
  }

  it('a stream mixing documents it takes and documents it leaves', () => {
    const text = 'apiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\nspec:\n  a: |+\n    keep\n\n---\napiVersion: v1\nkind: C\nspec:\n  a: x\n';
    const r = check('t.yaml', text);
    expect(r.differences).toEqual([]);
    expect(r.taken).toBe(2);
    // and the fast path reads the stream: the block reader two documents, js-yaml the one between
    expect(fastDocuments(text, plainScalarValue, MAX_DEPTH)?.map((d) => d.value?.['kind'])).toEqual(['A', 'B', 'C']);
  });
});
