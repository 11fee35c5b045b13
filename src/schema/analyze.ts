/**
 * The per-schema cascade of validateCustomResourceDefinitionValidation (apiextensions
 * validation.go), in the server's order:
 *   1. root allow-list when /status applies (one error at most), 2. nullable at the root,
 *   3. NewStructural (its error held back), ValidateStructural, and only if that is clean
 *      ValidateDefaults, and only if that is clean the CEL context,
 *   4. the OpenAPI-subset walk (always), 5. the held-back NewStructural error if nothing else.
 */
import { gated } from '../core/version-gates.js';
import { kubeMinor } from '../core/kube-version.js';
import { forbidden, invalid, type FieldError } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import type { Crd, SchemaTarget } from '../crd/model.js';
import { validateDefaults } from './defaults.js';
import { newStructuralError, validateStructural } from './structural.js';
import { walkSchema, type CelPanic, type CelUnchecked } from './walk.js';
import { isGoZero, type Schema } from './raw.js';
import { jsonText } from '../core/json-text.js';
import { CREATE_SCHEMA_OPTIONS, type SchemaValidationOptions } from './update-options.js';

export type SchemaCategory = 'root' | 'structural' | 'pattern' | 'openapi' | 'defaults' | 'list-map' | 'cel' | 'cel-compile';

type CategorizedError = FieldError & { readonly cat: SchemaCategory };

export interface SchemaAnalysis {
  readonly target: SchemaTarget;
  readonly errors: readonly CategorizedError[];
  /** ValidateStructural found nothing (so defaults were validated). */
  readonly structural: boolean;
  /** x-kubernetes-validations rules whose compilation crdx cannot reproduce (the server may reject them). */
  readonly celUnchecked: readonly CelUnchecked[];
  /** Rules and messageExpressions the server panics compiling (the request gets no answer). */
  readonly celPanics: readonly CelPanic[];
  /** How many rules the CEL checker compiled here, rejected, or could not check. */
  readonly celStats: { readonly compiled: number; readonly rejected: number; readonly unchecked: number };
  /**
   * The field paths of the nodes whose rules the server compiles (and costs): those without a schema
   * error found while validating them and what lies below them (the walk decides it).
   */
  readonly celCompiledAt: ReadonlySet<string>;
}

/** Internal JSONSchemaProps fields in declaration order, with their wire names. */
const ROOT_FIELDS: readonly [string, string][] = [
  ['ID', 'id'],
  ['Schema', '$schema'],
  ['Ref', '$ref'],
  ['Description', 'description'],
  ['Type', 'type'],
  ['Nullable', 'nullable'],
  ['Format', 'format'],
  ['Title', 'title'],
  ['Default', 'default'],
  ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'],
  ['Minimum', 'minimum'],
  ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'],
  ['MinLength', 'minLength'],
  ['Pattern', 'pattern'],
  ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'],
  ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'],
  ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'],
  ['MinProperties', 'minProperties'],
  ['Required', 'required'],
  ['Items', 'items'],
  ['AllOf', 'allOf'],
  ['OneOf', 'oneOf'],
  ['AnyOf', 'anyOf'],
  ['Not', 'not'],
  ['Properties', 'properties'],
  ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'],
  ['Dependencies', 'dependencies'],
  ['AdditionalItems', 'additionalItems'],
  ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'],
  ['Example', 'example'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'],
  ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'],
  ['XMapType', 'x-kubernetes-map-type'],
  ['XValidations', 'x-kubernetes-validations'],
];

const ALLOWED_AT_ROOT = [
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum',
  'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required',
  'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations',
];

function rootAllowList(s: Schema, target: SchemaTarget, out: CategorizedError[]): void {
  const loc = target.loc;
  for (const [goName, wire] of ROOT_FIELDS) {
    if (isGoZero(s, wire)) continue;
    if (goName === 'Type') {
      if (s['type'] !== 'object') {
        const typeLoc = new Loc(`${loc.field}.type`, [...loc.at, 'type']);
        out.push({ ...invalid(typeLoc, s['type'], `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`), cat: 'root' });
        return;
      }
      continue;
    }
    if (!ALLOWED_AT_ROOT.includes(goName)) {
      out.push({
        ...invalid(loc.withAt([...loc.at, wire]), s, `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`),
        cat: 'root',
      });
      return;
    }
  }
}

function analyzeSchema(crd: Crd, target: SchemaTarget, o: SchemaValidationOptions): SchemaAnalysis {
  const s = target.schema;
  const loc = target.loc;
  const errors: CategorizedError[] = [];
  const v1 = crd.requestVersion === 'v1';
  if (target.statusEnabled) rootAllowList(s, target, errors);
  if (s['nullable'] === true) errors.push({ ...forbidden(loc.child('nullable'), 'nullable cannot be true at the root'), cat: 'root' });

  // v1 always requires a structural schema (unless the stored object has a non-structural one);
  // v1beta1 (1.16-1.21) only when pruning, defaults or extensions ask for it
  const requireStructural = (v1 && o.requireStructuralSchema) || !crd.preserveUnknownFields || usesStructuralFeatures(s);
  let holdBack: FieldError | undefined;
  let structuralOk = false;
  let celOk = false;
  const celUnchecked: CelUnchecked[] = [];
  const celPanics: CelPanic[] = [];
  if (requireStructural) {
    const nsErr = newStructuralError(s);
    if (nsErr !== undefined) {
      holdBack = invalid(loc, '', nsErr);
    } else {
      const st = validateStructural(s, loc);
      if (st.length > 0) errors.push(...st);
      else {
        structuralOk = true;
        const d = validateDefaults(target.structural, loc, kubeMinor(crd.kube), crd.cel, o.requirePrunedDefaults, celUnchecked);
        if (d.length > 0) errors.push(...d.map((e) => ({ ...e, cat: 'defaults' as const })));
        else celOk = true;
      }
    }
  }
  const beta = !v1;
  const celStats = { compiled: 0, rejected: 0, unchecked: 0 };
  const celCompiledAt = new Set<string>();
  const walk = walkSchema(s, loc, {
    requireValidPropertyType: v1 && o.requireValidPropertyType,
    allowDefaults: v1,
    disallowDefaultsReason: beta && gated(crd.kube, 'crd.v1beta1-default-reason') ? '(cannot set default values in apiextensions.k8s.io/v1beta1 CRDs, must use apiextensions.k8s.io/v1)' : '',
    requireAtomicSetType: o.requireAtomicSetType,
    requireMapListKeysMapSetValidation: o.requireMapListKeysMapSetValidation,
    celEnabled: celOk,
    shortCelMessages: gated(crd.kube, 'crd.short-messages'),
    cel: crd.cel,
    kubeMinor: kubeMinor(crd.kube),
    ...(o.storedExpressions ? { storedExpressions: o.storedExpressions } : {}),
    celUnchecked,
    celPanics,
    celStats,
    celCompiledAt,
    rootStructural: target.structural,
  });
  errors.push(...walk);
  if (errors.length === 0 && holdBack) errors.push({ ...holdBack, cat: 'structural' });
  return { target, errors, structural: structuralOk, celUnchecked, celPanics, celStats, celCompiledAt };
}

function usesStructuralFeatures(s: Schema): boolean {
  const t = jsonText(s) ?? '';
  return t.includes('"x-kubernetes-') || t.includes('"default"');
}

/** `opts`: the update's options derived from the stored CRD (update-options.ts); default a create's. */
export function analyzeCrdSchemas(crd: Crd, opts: SchemaValidationOptions = CREATE_SCHEMA_OPTIONS): SchemaAnalysis[] {
  return crd.schemas.map((t) => analyzeSchema(crd, t, opts));
}
