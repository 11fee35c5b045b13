/**
 * `kubectl crdx test --init CRD.yaml`: a starter test file for the CRDs of a file. Per served
 * version one case with the smallest object the schema asks for (required properties, each given
 * its default, else its first enum value, else a value within its bounds), checked by simulating
 * it: allowed, with the defaults the server fills in as the expected result, or else the server's
 * causes in a comment for the author. Per CEL rule one denied case on that object, marked TODO:
 * the author edits the object so that it breaks the rule. Pure: returns the text.
 */
import { Document, type YAMLMap, type YAMLSeq } from 'yaml';
import type { KubeVersion } from '../core/kube-version.js';
import { isRecord } from '../core/types.js';
import { CrdCatalog } from '../cr/catalog.js';
import { simulateCreate } from '../cr/create.js';
import type { Crd } from '../crd/model.js';
import type { Cause } from './types.js';
import { toCause } from '../core/field-error.js';

type Schema = Record<string, unknown>;

function typeOf(s: Schema): string | undefined {
  if (typeof s['type'] === 'string') return s['type'];
  if (s['x-kubernetes-int-or-string'] === true) return 'integer';
  return isRecord(s['properties']) ? 'object' : undefined;
}

/** A value the schema accepts as far as its own keywords tell (not its CEL rules). */
function sampleValue(s: Schema, depth = 0): unknown {
  if (s['default'] !== undefined) return structuredClone(s['default']);
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return s['enum'][0];
  switch (typeOf(s)) {
    case 'string': {
      if (s['format'] === 'date-time') return '2025-01-01T00:00:00Z';
      const min = typeof s['minLength'] === 'number' ? s['minLength'] : 1;
      const max = typeof s['maxLength'] === 'number' ? s['maxLength'] : 63;
      return 'example'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(7, max)));
    }
    case 'integer':
    case 'number': {
      const min = typeof s['minimum'] === 'number' ? s['minimum'] + (s['exclusiveMinimum'] === true ? 1 : 0) : undefined;
      const max = typeof s['maximum'] === 'number' ? s['maximum'] - (s['exclusiveMaximum'] === true ? 1 : 0) : undefined;
      return min !== undefined ? Math.max(min, Math.min(1, max ?? 1)) : max !== undefined ? Math.min(1, max) : 1;
    }
    case 'boolean':
      return false;
    case 'array': {
      const n = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
      return isRecord(s['items']) && depth < 20 ? Array.from({ length: n }, () => sampleValue(s['items'] as Schema, depth + 1)) : [];
    }
    case 'object':
      return depth < 20 ? requiredOf(s, depth + 1) : {};
    default:
      return {};
  }
}

function requiredOf(s: Schema, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = isRecord(s['properties']) ? s['properties'] : {};
  const req = Array.isArray(s['required']) ? s['required'] : [];
  for (const k of req) if (typeof k === 'string' && isRecord(props[k])) out[k] = sampleValue(props[k], depth);
  return out;
}

interface Rule {
  readonly field: string;
  readonly rule: string;
  /** The fixed message (or failed rule: …); undefined when a messageExpression words it. */
  readonly message: string | undefined;
}

/** Every x-kubernetes-validations rule with the server's field path of its node (`[0]` for list items). */
function celRules(s: Schema, path: string, out: Rule[]): Rule[] {
  const v = s['x-kubernetes-validations'];
  if (Array.isArray(v))
    for (const r of v.filter(isRecord)) {
      const rule = String(r['rule'] ?? '');
      const message = typeof r['messageExpression'] === 'string' ? undefined : typeof r['message'] === 'string' && r['message'].trim() !== '' ? r['message'].trim() : `failed rule: ${rule.trim()}`;
      out.push({ field: path === '' ? '<nil>' : path, rule, message });
    }
  const props = isRecord(s['properties']) ? s['properties'] : {};
  for (const [k, c] of Object.entries(props)) if (isRecord(c) && !(path === '' && k === 'metadata')) celRules(c, path === '' ? k : `${path}.${k}`, out);
  if (isRecord(s['items'])) celRules(s['items'], `${path}[0]`, out);
  if (isRecord(s['additionalProperties'])) celRules(s['additionalProperties'], `${path}[key]`, out);
  return out;
}

function causeLine(c: Cause): string {
  return `${c.field !== undefined ? `${c.field}: ` : ''}${c.message}`;
}

/** The starter test file for the CRDs of `crdPath` (as the test file names it). */
export function scaffoldTestFile(crds: readonly Crd[], crdPath: string, kube: KubeVersion): { text: string; cases: number } {
  const catalog = new CrdCatalog(crds);
  const cases: unknown[] = [];
  const comments = new Map<number, string>();
  for (const crd of crds) {
    let rulesDone = false;
    for (const v of crd.versions.filter((x) => x.served)) {
      const apiVersion = `${crd.group}/${v.name}`;
      const l = catalog.lookup(apiVersion, crd.names.kind);
      if (!l.ok) continue;
      const schema = (l.served.structural?.raw ?? {}) as Schema;
      const root = requiredOf(schema, 0);
      delete root['metadata'];
      // custom resources have a spec: given even when the schema does not require one
      const props = isRecord(schema['properties']) ? schema['properties'] : {};
      if (root['spec'] === undefined && isRecord(props['spec'])) root['spec'] = sampleValue({ ...props['spec'], default: undefined });
      const object = { apiVersion, kind: crd.names.kind, metadata: { name: `example-${v.name}` }, ...root };
      const r = simulateCreate(structuredClone(object), l.served, { kube });
      const causes = r.decodeError ? [{ reason: 'BadRequest', message: r.decodeError.message }] : r.errors.map(toCause);
      const c: Record<string, unknown> = { name: `a minimal ${crd.names.kind} ${v.name} is accepted`, object, allowed: true };
      if (causes.length > 0) comments.set(cases.length, ` TODO: crdx expects the server to refuse this object; fix it:\n${causes.map((x) => `   ${causeLine(x)}`).join('\n')}`);
      else if (r.celNotEvaluated) comments.set(cases.length, ' note: crdx cannot evaluate every CEL rule of this CRD on this object; the case will not be decided offline');
      else if (l.served.conversion === 'Webhook' && l.served.storage() !== l.served) comments.set(cases.length, ' note: this version is stored through the conversion webhook, which crdx does not run; the case will not be decided offline');
      else if (r.value) {
        // what the server fills in: the defaults (the spec as stored)
        const stored = r.value;
        const result: Record<string, unknown> = {};
        for (const k of Object.keys(stored)) if (k !== 'apiVersion' && k !== 'kind' && k !== 'metadata' && JSON.stringify(stored[k]) !== JSON.stringify((object as Record<string, unknown>)[k])) result[k] = stored[k];
        if (Object.keys(result).length > 0) c['result'] = result;
      }
      cases.push(c);
      if (rulesDone) continue;
      rulesDone = true;
      celRules(schema, '', []).forEach((rule, i) => {
        const transition = /\boldSelf\b/.test(rule.rule);
        const what = transition ? 'change the object (or the oldObject) so that the update breaks the rule' : 'change the object so that it breaks the rule';
        comments.set(cases.length, ` TODO: ${what}${rule.message === undefined ? ', and give the message its messageExpression makes' : ''}\n   ${rule.rule.replace(/\n/g, '\n   ')}`);
        const title = rule.message ?? `rule ${i + 1}`;
        cases.push({
          name: `${crd.names.kind} ${rule.field}: ${title.length > 60 ? `${title.slice(0, 59)}…` : title}`,
          ...(transition ? { oldObject: structuredClone(object) } : {}),
          object: structuredClone(object),
          denied: [{ field: rule.field, ...(rule.message !== undefined ? { messageContains: rule.message } : {}) }],
        });
      });
    }
  }
  const doc = new Document({ crds: [crdPath], cases });
  doc.commentBefore = ` Starter tests written by kubectl crdx test --init; run them with kubectl crdx test.\n Editors with the YAML language server check this file against schema/crdx-test.schema.json of the\n kubectl-crdx package: add a first line "# yaml-language-server: $schema=<path to it>".`;
  const seq = doc.get('cases', true) as YAMLSeq;
  seq.items.forEach((item, i) => {
    const c = comments.get(i);
    if (c !== undefined) (item as YAMLMap).commentBefore = c;
    if (i > 0) (item as YAMLMap).spaceBefore = true;
  });
  return { text: doc.toString({ lineWidth: 0 }), cases: cases.length };
}
