/**
 * The printers that make `default`, `status` and `scale` output the text kubectl prints. Each
 * expectation here was checked against the real kubectl and API server
 * (test/conformance/bad-input.conformance.test.ts, "default prints what kubectl prints").
 */
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../src/core/json-text.js';
import { sortKeys } from '../../src/core/sort-keys.js';
import { parseFile } from '../../src/manifest/parse.js';
import { corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';
import { goJsonIndent, structOrdered } from '../../src/go/json.js';
import { goFloatG, goYamlKeyCompare, goYamlText, plainReadsAsString } from '../../src/go/yaml-emit.js';

describe('go-yaml v2 key order', () => {
  it('runs of digits compare as numbers, a non-letter sorts before a letter, letters by code point', () => {
    const keys = ['item10', 'item2', 'item02', 'foo_bar', 'fooBar', 'Zed', 'zed', '10', '2', '0', '', '-x', '9a', '.', 'é', 'a01b', 'a1b'];
    expect([...keys].sort(goYamlKeyCompare)).toEqual(['', '-x', '.', '0', '2', '9a', '10', 'Zed', 'a1b', 'a01b', 'foo_bar', 'fooBar', 'item2', 'item02', 'item10', 'zed', 'é']);
  });
});

describe('numbers and strings as go-yaml writes them', () => {
  it("floats in Go's %g (shortest digits, exponent from 1e6 and below 1e-4)", () => {
    expect([1.5, 1234567.5, 123456.5, 0.00001, 0.0001, 1e21, -1.5e-10, 100.25].map(goFloatG)).toEqual([
      '1.5',
      '1.2345675e+06',
      '123456.5',
      '1e-05',
      '0.0001',
      '1e+21',
      '-1.5e-10',
      '100.25',
    ]);
  });

  it('texts that would read back as another type are quoted, the rest are not', () => {
    const quoted = ['yes', 'Y', 'off', '~', 'null', '', '123', '0o17', '08', '1_000', '+1', '.5', '1:20', '2024-01-02', '2024-1-2 3:04:05', '1e5', '0x1F', '.inf', '99999999999999999999', '0b101'];
    const plain = ['<<', 'NaN', '12e', '2024-13-01', 'x', 'a:b', '1.2.3', '-', 'y1'];
    expect(quoted.filter(plainReadsAsString)).toEqual([]);
    expect(plain.filter((s) => !plainReadsAsString(s))).toEqual([]);
  });
});

describe('kubectl -o yaml text', () => {
  it('keys in natural order, sequences under their key, styles by content, folding past column 80', () => {
    const spec = {
      item10: 1,
      item2: 2,
      foo_bar: 1,
      fooBar: 2,
      '10': 'a',
      '2': 'b',
      amp: 'a&b',
      start: '&x',
      multi: 'one\ntwo\n',
      keep: 'a\n\n',
      tab: 'a\tb',
      true: 'yes',
      date: '2024-01-02',
      f: 1234567.5,
      small: 0.00001,
      big: 12345678901234567890,
      list: [{ b: 1, a: ['x', []] }, {}],
      long: 'aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp qqqq rrrr',
      emoji: 'x\u{1F600}',
    };
    expect(goYamlText({ kind: 'Text', apiVersion: 'example.com/v1', spec })).toBe(`apiVersion: example.com/v1
kind: Text
spec:
  "2": b
  "10": a
  amp: a&b
  big: 12345678901234567000
  date: "2024-01-02"
  emoji: "x\\U0001F600"
  f: 1.2345675e+06
  foo_bar: 1
  fooBar: 2
  item2: 2
  item10: 1
  keep: |+
    a

  list:
  - a:
    - x
    - []
    b: 1
  - {}
  long: aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo
    pppp qqqq rrrr
  multi: |
    one
    two
  small: 1e-05
  start: '&x'
  tab: "a\\tb"
  "true": "yes"
`);
  });
});

describe('kubectl -o json text', () => {
  it('keys in byte order (integer-like ones too), HTML-safe strings, int64 digits, four-space indent', () => {
    const obj = { b: 'x<y>&z', '10': 1, '2': 2, a: [], e: {}, n: 9223372036854775807n, l: [1, { d: null }], s: '\u2028' };
    expect(goJsonIndent(obj)).toBe(`{
    "10": 1,
    "2": 2,
    "a": [],
    "b": "x\\u003cy\\u003e\\u0026z",
    "e": {},
    "l": [
        1,
        {
            "d": null
        }
    ],
    "n": 9223372036854775807,
    "s": "\\u2028"
}`);
  });

  it('a typed object (structOrdered) keeps its field order', () => {
    expect(goJsonIndent(structOrdered({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 } }), '  ')).toBe(
      '{\n  "kind": "Scale",\n  "apiVersion": "autoscaling/v1",\n  "spec": {\n    "replicas": 1\n  }\n}',
    );
  });
});

describe('kubectl -o yaml text reads back as the same object', () => {
  it.skipIf(!HAVE_CORPUS)('every corpus CRD and sample (long descriptions folded, block scalars, quoted texts)', () => {
    let docs = 0;
    const bad: string[] = [];
    for (const kind of ['crds', 'samples'] as const)
      for (const f of corpusFiles(kind))
        for (const d of parseFile({ path: f.path, text: f.text }))
          for (const m of d.manifests) {
            docs++;
            const back = parseFile({ path: 'back.yaml', text: goYamlText(m.value) })[0];
            if (jsonText(sortKeys(back?.manifests[0]?.value)) !== jsonText(sortKeys(m.value))) bad.push(`${f.path} #${d.docIndex}`);
          }
    expect(bad).toEqual([]);
    expect(docs).toBeGreaterThan(300);
  });
});
