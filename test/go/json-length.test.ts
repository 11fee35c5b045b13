/**
 * goJSONLength (the size client-side kubectl apply's annotation takes) equals the byte length of
 * goJSON, Go's own json.Marshal text (pinned against Go in print.test.ts), on every corpus CRD and
 * on values that Go escapes differently from JavaScript.
 */
import { describe, expect, it } from 'vitest';
import { goJSON, goJSONLength, goJsonDecode } from '../../src/go/json.js';
import { parseFile } from '../../src/manifest/parse.js';
import { corpusFiles } from '../helpers/corpus.js';

const bytes = (v: unknown) => Buffer.byteLength(goJSON(v), 'utf8');

describe('goJSONLength = the byte length of json.Marshal', () => {
  it.each([
    ['html', { a: '<b>&</b>', '<k>': 1 }],
    ['line and paragraph separators', ['\u2028', 'x\u2029y']],
    ['controls', ['\b\f\n\r\t\u0001\u001f', '"\\']],
    ['unicode', { 'ключ': 'значение 😀', e: 'é\u00a0' }],
    ['numbers', [0, -1, 1.5, 1e21, 1e-7, 9007199254740993n, -(2n ** 63n)]],
    ['nesting and nulls', { a: [null, true, false, { b: [] }], c: {} }],
  ])('%s', (_name, v) => {
    expect(goJSONLength(v)).toBe(bytes(v));
  });

  it('on every corpus CRD', () => {
    let n = 0;
    for (const f of corpusFiles('crds'))
      for (const d of parseFile({ path: f.path, text: f.text }))
        for (const m of d.manifests) {
          expect(goJSONLength(m.value), m.name).toBe(bytes(m.value));
          n++;
        }
    expect(n === 0 || n > 100).toBe(true);
  });
});

describe('goJsonDecode: numbers as a Go client of the server decodes them', () => {
  it('keeps int64s exact, reads other numbers as float64, and leaves strings alone', () => {
    const v = goJsonDecode(
      '{"a":9007199254740993,"b":-9223372036854775808,"c":9223372036854775808,"d":4611686018427388000,"e":1.12345678901234567,"f":1e12345678901234567,"g":"9007199254740993","h":[12345678901234567890123],"i":1,"j":"x\\"9007199254740993","k":2.5e-12345678901234567}',
    ) as Record<string, unknown>;
    expect(v).toEqual({
      a: 9007199254740993n,
      b: -9223372036854775808n,
      c: 9223372036854775808,
      d: 4611686018427388000n,
      e: 1.1234567890123457,
      f: Infinity,
      g: '9007199254740993',
      h: [1.2345678901234568e22],
      i: 1,
      j: 'x"9007199254740993',
      k: 0,
    });
  });
  it('is JSON.parse where no integer needs more than a double', () => {
    const text = '{"a":[1,2.5,-3e5,"\\u0000crdx-int:1"],"b":{"c":null,"d":true}}';
    expect(goJsonDecode(text)).toEqual(JSON.parse(text));
  });
});
