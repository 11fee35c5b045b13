import { invalid } from '../core/field-error.js';
import type { Loc } from '../core/path.js';
import type { JsonPath } from '../core/types.js';
import type { Crd } from '../crd/model.js';
import type { SchemaCategory } from '../schema/analyze.js';
import { defineRule, SERVER_MESSAGES, serverReport, type Report, type Rule, type RuleMeta } from './types.js';

type ServerMeta = Omit<RuleMeta<'server'>, 'messages' | 'type' | 'serverFaithful' | 'defaultSeverity'>;

/** A server-faithful rule that reports one category of the schema cascade. */
export function schemaCategoryRule(id: string, cat: SchemaCategory, meta: ServerMeta): Rule<'server'> {
  return defineRule({
    id,
    meta: { ...meta, type: 'problem', serverFaithful: true, defaultSeverity: 'error', messages: SERVER_MESSAGES },
    *check(ctx): Iterable<Report<'server'>> {
      for (const a of ctx.schemaAnalysis()) for (const e of a.errors) if (e.cat === cat) yield serverReport(e);
    },
  });
}

export function serverMeta(meta: ServerMeta): RuleMeta<'server'> {
  return { ...meta, type: 'problem', serverFaithful: true, defaultSeverity: 'error', messages: SERVER_MESSAGES };
}

/** ValidateImmutableField: the value of the update must equal the stored one. */
export function* immutable(loc: Loc, value: string, oldValue: string, old: Crd, oldAt: JsonPath): Iterable<Report<'server'>> {
  if (value !== oldValue) yield { ...serverReport(invalid(loc, value, 'field is immutable')), old: { manifest: old.manifest, path: oldAt } };
}
