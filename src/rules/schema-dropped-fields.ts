import { crdDecodeProblems } from './crd-decode.js';
import { defineRule } from './types.js';

/** Edit distance (insert, delete, replace, swap of neighbours), stopping early past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The field that was probably meant: same letters ignoring case, or at most two edits away (one for short names). */
export function meantField(key: string, fields: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const same = fields.find((f) => f.toLowerCase() === lower);
  if (same !== undefined) return same;
  const max = key.length <= 5 ? 1 : 2;
  let best: [string, number] | undefined;
  for (const f of fields) {
    const d = distance(key, f, max);
    if (d <= max && (best === undefined || d < best[1])) best = [f, d];
  }
  return best?.[0];
}

export const schemaDroppedFields = defineRule({
  id: 'schema-dropped-fields',
  meta: {
    type: 'suggestion',
    serverFaithful: false,
    defaultSeverity: 'warning',
    docs: {
      description: 'Unknown fields below the object form of items, additionalProperties, additionalItems or a dependencies value, and items that are not a schema, are dropped by the server without a word.',
      details:
        'These four fields hold a schema or a bool (or a list), and the server decodes their object form with its plain JSON decoder, not the strict one: a wrong type there still fails the request (crd-decode), but an unknown field is dropped silently under every --validate (no 400 with strict, no warning with warn), and the CRD is created without it. A typo such as `x-kubernetes-validatons` or `maxitems` in a list\'s items schema therefore removes a rule or a limit with no sign. Items (or a dependencies value) that is neither an object nor a list, such as `items: string`, is dropped the same way: for a list the server then answers `items: Required value: must be specified`. The server says nothing of the drop itself, so this is advice; the same field anywhere else in the CRD is reported by crd-decode or crd-warnings.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/marshal.go: JSONSchemaPropsOrBool.UnmarshalJSON, JSONSchemaPropsOrArray.UnmarshalJSON, JSONSchemaPropsOrStringArray.UnmarshalJSON (not checked by the server)',
    },
    messages: {
      dropped: '{{field}} is not a field of {{owner}}: below {{under}} the server drops it without an error or a warning',
      droppedValue: '{{under}} is a JSON {{got}}, neither a schema nor a list: the server drops it without an error or a warning',
      droppedMeant: '{{field}} is not a field of {{owner}} (did you mean {{meant}}?): below {{under}} the server drops it without an error or a warning',
    },
  },
  *check({ crd }) {
    for (const p of crdDecodeProblems(crd).dropped) {
      if (p.kind === 'dropped-value') {
        const name = String(p.path[p.path.length - 1]);
        const under = typeof p.path[p.path.length - 2] === 'string' && p.path[p.path.length - 2] === 'dependencies' ? 'a dependencies value' : name;
        yield { messageId: 'droppedValue' as const, data: { under, got: p.got ?? '' }, path: p.path };
        continue;
      }
      const field = String(p.path[p.path.length - 1]);
      const meant = meantField(field, p.fields ?? []);
      // the nearest of the four fields above it: where the lax decoding began
      let i = p.path.length - 2;
      while (i >= 0 && !LAX.has(p.path[i] as string)) i--;
      const under = String(p.path[i]);
      const owner = ownerOf(p.path);
      const data = { field: JSON.stringify(field), owner, under, meant: meant === undefined ? '' : JSON.stringify(meant) };
      yield { messageId: meant === undefined ? ('dropped' as const) : ('droppedMeant' as const), data, path: p.path, at: 'key' as const };
    }
  },
});

const LAX = new Set(['items', 'additionalProperties', 'additionalItems', 'dependencies']);

function ownerOf(path: readonly (string | number)[]): string {
  const parent = path[path.length - 2];
  if (typeof parent === 'number' && path[path.length - 3] === 'x-kubernetes-validations') return 'a validation rule';
  if (parent === 'externalDocs') return 'externalDocs';
  return 'a schema';
}
