/**
 * Cases whose expected output was produced by the real apiextensions-apiserver v0.36.6 code
 * (pruning.PruneWithOptions with unknown-field tracking, defaulting.PruneNonNullableNullsWithoutDefaults,
 * defaulting.Default, and for 'pipeline' unstructuredSchemaCoercer.apply without objectmeta
 * followed by Default), run by a throwaway Go harness on the same JSON inputs.
 * The data is read with JSON.parse so keys such as `__proto__` stay plain data.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../src/crd/structural-schema.js';
import { isRecord } from '../../src/core/types.js';
import { applyDefaults } from '../../src/schema/behaviours/default.js';
import { decode } from '../../src/simulate/pipeline.js';
import { formatUnknownFieldPath, prune } from '../../src/schema/behaviours/prune.js';
import { pruneNonNullableNullsWithoutDefaults } from '../../src/schema/behaviours/prune-nulls.js';
import type { Change } from '../../src/schema/behaviours/types.js';

interface GoCase {
  readonly id: string;
  readonly name?: string;
  readonly op: 'prune' | 'prunenulls' | 'default' | 'pipeline';
  readonly root?: boolean;
  readonly schema: Record<string, unknown> | null;
  readonly value: unknown;
  readonly expected: { readonly value: unknown; readonly unknownFieldPaths: readonly string[] } | { readonly error: true };
}

const data = JSON.parse(readFileSync(new URL('./go-verified.json', import.meta.url), 'utf8')) as { cases: GoCase[] };

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** The value at `path`, or `missing`. */
const MISSING = Symbol('missing');
function at(v: unknown, path: readonly (string | number)[]): unknown {
  let cur: unknown = v;
  for (const seg of path) {
    if (typeof seg === 'number' ? Array.isArray(cur) && seg < cur.length : isRecord(cur) && Object.prototype.hasOwnProperty.call(cur, seg)) cur = (cur as Record<string, unknown>)[seg as string];
    else return MISSING;
  }
  return cur;
}

/** Every object and array in a JSON value. */
function objectsOf(v: unknown, out = new Set<object>()): Set<object> {
  if (v !== null && typeof v === 'object') {
    out.add(v);
    for (const x of Object.values(v)) objectsOf(x, out);
  }
  return out;
}

function run(c: GoCase): { value: unknown; unknown: readonly string[]; changes: readonly Change[]; error?: boolean } {
  const input = deepFreeze(JSON.parse(JSON.stringify(c.value)) as unknown);
  const schema = c.schema === null ? undefined : buildStructural(deepFreeze(c.schema));
  switch (c.op) {
    case 'prune': {
      const r = prune(input, schema, { isResourceRoot: c.root === true });
      return { value: r.value, unknown: r.unknownFieldPaths, changes: r.changes };
    }
    case 'prunenulls': {
      const r = pruneNonNullableNullsWithoutDefaults(input, schema);
      return { value: r.value, unknown: [], changes: r.changes };
    }
    case 'default': {
      const r = applyDefaults(input, schema);
      return { value: r.value, unknown: [], changes: r.changes };
    }
    case 'pipeline': {
      const r = decode(input, schema);
      // the decoded value is the caller's to edit: no object of it is one of the input's (stages share
      // what they do not change, so this rests on pruning's copy, or on decode's own without pruning)
      for (const opts of [{}, { skipDefaulting: true }, { preserveUnknownFields: true }, { preserveUnknownFields: true, skipDefaulting: true }]) {
        const mine = objectsOf(decode(input, schema, opts).value);
        expect([...objectsOf(input)].filter((o) => mine.has(o))).toEqual([]);
      }
      return { value: r.value, unknown: r.unknownFieldPaths, changes: r.changes, ...(r.error ? { error: true } : {}) };
    }
  }
}

describe('matches the API server code (Go-verified cases)', () => {
  for (const c of data.cases) {
    it(`${c.id} ${c.op}${c.name ? `: ${c.name}` : ''}`, () => {
      const r = run(c);
      if ('error' in c.expected) {
        expect(r.error).toBe(true);
        return;
      }
      expect(r.value).toEqual(c.expected.value);
      expect(r.unknown).toEqual(c.expected.unknownFieldPaths);

      // the change log explains the difference
      for (const ch of r.changes) {
        if (ch.kind === 'pruned' && c.op === 'prune') expect(at(r.value, ch.path)).toBe(MISSING);
        if (ch.kind === 'null-dropped') {
          expect(at(c.value, ch.path)).toBeNull();
          expect(at(r.value, ch.path)).toBe(MISSING);
        }
      }
      if (c.op === 'prune') {
        // every reported path is a pruned change; unreported ones are top-level apiVersion/kind/metadata
        const printed = r.changes.map((ch) => formatUnknownFieldPath(ch.path));
        for (const p of r.unknown) expect(printed).toContain(p);
        const silent = r.changes.filter((ch) => !r.unknown.includes(formatUnknownFieldPath(ch.path)));
        for (const ch of silent) expect(ch.path.length === 1 && ['apiVersion', 'kind', 'metadata'].includes(String(ch.path[0]))).toBe(true);
      }
      if (c.op === 'default') {
        for (const ch of r.changes) expect(at(r.value, ch.path)).not.toBe(MISSING);
        if (r.changes.length === 0) expect(r.value).toEqual(c.value);
      }
    });
  }
});
