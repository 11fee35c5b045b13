/** src/go/print.ts (%v, %T) and src/go/json.ts (json.Marshal, MarshalIndent) on decoded values, against Go (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { goJSON, goJsonIndent } from '../../src/go/json.js';
import { goTypeOf, goValue } from '../../src/go/print.js';
import { decodeJSON, vectors } from './vectors.js';

describe.each(vectors.value.map((c) => [c.in, c] as const))('%s', (input, c) => {
  const v = decodeJSON(input);
  it('%v', () => expect(goValue(v)).toBe(c.v));
  it('%T', () => expect(goTypeOf(v)).toBe(c.t));
  it('json.Marshal', () => expect(goJSON(v)).toBe(c.json));
  it('json.MarshalIndent (kubectl -o json)', () => expect(goJsonIndent(v)).toBe(c.indent));
});
