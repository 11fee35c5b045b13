import { gated } from '../core/version-gates.js';
import { duplicate, invalid, required, tooMany } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { rec, semanticEqual, str } from '../crd/json.js';
import { validFieldPath } from '../schema/field-path.js';
import { newStructuralError } from '../schema/structural.js';
import type { Crd, SchemaTarget, Target } from '../crd/model.js';
import type { Structural } from '../crd/structural-schema.js';
import { defineRule, SERVER_MESSAGES, serverReport, type Report } from './types.js';

const ALLOWED = new Set(['string', 'boolean', 'integer']);

export const selectableFields = defineRule({
  id: 'selectable-fields',
  meta: {
    type: 'problem',
    serverFaithful: true,
    defaultSeverity: 'error',
    docs: {
      description: 'selectableFields must point at string, boolean or integer fields of the schema, at most 8, no duplicates.',
      details:
        'Paths use the server field-path syntax, may not point into metadata, and must resolve through properties. A 1.30 server (feature gate alpha and off) drops selectableFields without checking them, unless the installed CRD already has some. Because the server hoists selectableFields and schemas independently, identical lists next to different schemas (and the converse) are rejected with the server\'s odd messages. Next to a schema that is not structural (`$ref`, `definitions`, item tuples…), the server still checks the list, in a nil schema: a path that fails before its first step gets its error, and the first one that steps into the schema (`.spec.x`) makes the server panic (a nil pointer dereference in ValidFieldPath): the request gets no answer at all, and the finding carries `aborted`.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionSpec, validateCustomResourceDefinitionVersion, ValidateCustomResourceSelectableFields; k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/validation.go: ValidFieldPath; k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/conversion.go: Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec',
    },
    messages: {
      ...SERVER_MESSAGES,
      panics:
        'the API server panics on this CRD and answers nothing: the schema the selectable field {{path}} is resolved in is not structural ({{why}}), the server resolves the path in a nil schema and dereferences it; the CRD is not written. Fix the schema',
    },
  },
  *check({ crd, update }) {
    if (!gated(crd.kube, 'crd.selectable-fields')) return;
    // 1.30: the CustomResourceFieldSelectors gate is alpha and off, and the strategy drops
    // selectableFields before validation unless the stored CRD already has some (dropDisabledFields)
    if (!gated(crd.kube, 'crd.selectable-fields-on') && !(update && update.old.crd.selectableFields.some((t) => t.value.length > 0))) return;
    for (const t of crd.selectableFields) {
      // an update may keep an installed list of more than 8 fields unchanged (findTooManySelectableFieldsAllowed)
      const allowTooMany = update !== undefined && keptOversized(t, update.old.crd);
      // which schema applies, as the server sees it after hoisting
      let target: SchemaTarget | undefined;
      if (t.hoisted) {
        const top = crd.hoisted.schema ? crd.schemas[0] : undefined;
        if (!top || crd.requestVersion !== 'v1') {
          if (!top) {
            yield serverReport(invalid(new Loc('spec.selectableFields', t.loc.at), '', 'may only be set when validations.schema is included'));
            continue;
          }
        }
        target = top;
      } else {
        const own = crd.schemas.find((s) => s.versions.length === 1 && s.versions[0] === t.versions[0]);
        if (!own) {
          const text = gated(crd.kube, 'crd.short-messages')
            ? 'may only be set when `version.schema.openAPIV3Schema` is not included'
            : 'selectableFields may only be set when `version.schema.openAPIV3Schema` is not included';
          yield serverReport(invalid(t.loc, '', text));
          continue;
        }
        target = own;
      }
      if (target) {
        const nsErr = newStructuralError(target.schema);
        if (nsErr !== undefined) {
          const parent = t.hoisted ? 'spec' : t.loc.field.replace(/\.selectableFields$/, '');
          const schemaAt = t.hoisted ? (crd.schemas[0]?.loc.at ?? t.loc.at) : (crd.schemas.find((s) => s.versions[0] === t.versions[0])?.loc.at ?? t.loc.at);
          yield serverReport(invalid(new Loc(`${parent}.schema.openAPIV3Schema`, schemaAt), '', nsErr));
        }
        // NewStructural failed: the server still validates the list, in a nil schema (validation.go),
        // and the first path that steps into it dereferences nil
        yield* checkList(t.value, nsErr === undefined ? target.structural : { nil: nsErr }, t.loc, allowTooMany);
      }
    }
  },
});

/** The installed CRD has this list (top-level, or of the version of that name) with more than 8 entries, unchanged. */
function keptOversized(t: Target<readonly unknown[]>, old: Crd): boolean {
  const before = t.hoisted
    ? old.selectableFields.find((o) => o.hoisted)
    : old.selectableFields.find((o) => !o.hoisted && o.versions[0]?.name === t.versions[0]?.name);
  return before !== undefined && before.value.length > 8 && semanticEqual(before.value, t.value);
}

function* checkList(list: readonly unknown[], schema: Structural | { readonly nil: string }, loc: Loc, allowTooMany: boolean): Iterable<Report<'server' | 'panics'>> {
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const f = rec(list[i]) ?? {};
    const pl = loc.index(i).child('jsonPath');
    const path = str(f['jsonPath']);
    if (path === '') {
      yield serverReport(required(pl, ''));
      continue;
    }
    const r = validFieldPath(path, 'nil' in schema ? null : schema, false);
    if (r.panics) {
      yield {
        messageId: 'panics',
        data: { path: JSON.stringify(path), why: (schema as { nil: string }).nil },
        path: pl.at,
        aborted: `the selectable field ${JSON.stringify(path)} at ${pl.field}, resolved in a nil schema (NewStructural: ${(schema as { nil: string }).nil}; cel.ValidFieldPath: invalid memory address or nil pointer dereference)`,
      };
      return;
    }
    if (r.error !== undefined || !r.schema) {
      yield serverReport(invalid(pl, path, `is an invalid path: ${r.error ?? 'does not refer to a valid field'}`));
      continue;
    }
    const norm = (r.segments ?? []).join('.');
    if (r.segments?.[0] === 'metadata') yield serverReport(invalid(pl, path, 'must not point to fields in metadata'));
    if (!ALLOWED.has(r.schema.generic.type))
      yield serverReport(invalid(pl, path, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    if (seen.has(norm)) yield serverReport(duplicate(pl, path));
    seen.add(norm);
  }
  if (seen.size > 8 && !allowTooMany) yield serverReport(tooMany(loc, seen.size, 8));
}
