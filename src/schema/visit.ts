import { Loc } from '../core/path.js';
import { isRecord } from '../core/types.js';
import { addl, itemsSchema, notSchema, props, schemaList, type Schema } from './raw.js';

/** Visits every schema node (structural and inside junctors) with its location. */
export function* visitSchema(s: Schema, loc: Loc): Iterable<[Schema, Loc]> {
  yield [s, loc];
  for (const [k, p] of props(s)) yield* visitSchema(p, loc.child('properties').key(k));
  const it = itemsSchema(s);
  if (it) yield* visitSchema(it, loc.child('items'));
  const ap = addl(s);
  if (isRecord(ap)) yield* visitSchema(ap, loc.child('additionalProperties'));
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schemaList(s, k);
    for (let i = 0; i < list.length; i++) yield* visitSchema(list[i]!, loc.child(k).index(i));
  }
  const not = notSchema(s);
  if (not) yield* visitSchema(not, loc.child('not'));
}
