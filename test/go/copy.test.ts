/** src/go/copy.ts: runtime.DeepCopyJSONValue. */
import { describe, expect, it } from 'vitest';
import { deepCopy } from '../../src/go/copy.js';
import { deepEqual } from '../../src/go/equal.js';
import { decodeJSON } from './vectors.js';

describe('deepCopy', () => {
  it('copies every level and shares nothing', () => {
    const v = decodeJSON('{"a":[1,{"b":"c"}],"d":{"e":null},"f":9223372036854775807}') as Record<string, unknown>;
    const c = deepCopy(v) as Record<string, unknown>;
    expect(deepEqual(c, v)).toBe(true);
    expect(c['a']).not.toBe(v['a']);
    expect((c['a'] as unknown[])[1]).not.toBe((v['a'] as unknown[])[1]);
    expect(c['d']).not.toBe(v['d']);
    expect(c['f']).toBe(9223372036854775807n);
  });

  it('keeps a __proto__ key as an own member (the copy objectmeta used did not)', () => {
    const v = JSON.parse('{"spec":{"__proto__":{"x":1},"y":2}}') as Record<string, unknown>;
    const c = deepCopy(v) as { spec: Record<string, unknown> };
    expect(Object.keys(c.spec)).toEqual(['__proto__', 'y']);
    expect(Object.getPrototypeOf(c.spec)).toBe(Object.prototype);
    expect(deepEqual(c, v)).toBe(true);
  });
});
