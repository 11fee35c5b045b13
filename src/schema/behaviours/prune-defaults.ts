/**
 * structuraldefaulting.PruneDefaults (apiextensions pkg/apiserver/schema/defaulting/prune.go), which
 * the server applies to every version's structural schema before serving it: each default is placed
 * in a surrounding object at its position (surroundingobject.go: `{k: x}` for a property, `{"*": x}`
 * for additionalProperties, `[x]` for items), the whole object gets embedded ObjectMeta coercion with
 * malformed fields dropped and pruning as a resource root, and the default is read back from there
 * (absent afterwards: no default). Only defaults inside metadata of embedded resources normally
 * change (vector V72), since CRD validation already rejects defaults with unknown fields.
 *
 * Returns the schema itself when nothing changes, otherwise a new typed schema built from a copy of
 * the raw record with the changed defaults (the input is never mutated).
 */
import { deepEqual } from '../../go/equal.js';
import { Loc } from '../../core/path.js';
import { isRecord, setOwn } from '../../core/types.js';
import { coerceObjectMeta } from '../objectmeta.js';
import { buildStructural, type Structural } from '../../crd/structural-schema.js';
import { prune } from './prune.js';

type Seg = { readonly child: string } | 'index';
type Raw = Record<string, unknown>;

export function pruneDefaults(root: Structural): Structural {
  if (!root.facts.defaultsBelow) return root;
  const raw = walk(root, root, []);
  return raw === undefined ? root : buildStructural(raw);
}

/** The raw record of the node with pruned defaults, or undefined when nothing below changed. */
function walk(s: Structural, root: Structural, path: readonly Seg[]): Raw | undefined {
  if (!s.facts.defaultsBelow) return undefined;
  let out: Raw | undefined;
  const edit = (): Raw => (out ??= { ...s.raw });
  if (s.generic.hasDefault) {
    const pruned = pruneOne(s.generic.default, root, path);
    if (pruned.changed) {
      const o = edit();
      if (pruned.value === undefined) delete o['default'];
      else o['default'] = pruned.value;
    }
  }
  const ap = s.additionalProperties?.schema;
  if (ap !== undefined) {
    const r = walk(ap, root, [...path, { child: '*' }]);
    if (r) edit()['additionalProperties'] = r;
  }
  if (s.items !== undefined) {
    const r = walk(s.items, root, [...path, 'index']);
    if (r) edit()['items'] = r;
  }
  let newProps: Raw | undefined;
  for (const [k, p] of s.properties) {
    const r = walk(p, root, [...path, { child: k }]);
    if (r) setOwn((newProps ??= { ...(s.raw['properties'] as Raw) }), k, r);
  }
  if (newProps) edit()['properties'] = newProps;
  return out;
}

function pruneOne(def: unknown, root: Structural, path: readonly Seg[]): { changed: boolean; value?: unknown } {
  // NewRootObjectFunc: the root default itself must be an object
  if (path.length === 0 && !isRecord(def)) return { changed: false };
  let obj: unknown = def;
  for (let i = path.length - 1; i >= 0; i--) {
    const seg = path[i]!;
    obj = seg === 'index' ? [obj] : { [seg.child]: obj };
  }
  if (!isRecord(obj)) return { changed: false };
  const co = coerceObjectMeta(new Loc('', []), obj, root, true, { dropInvalidFields: true, returnUnknownFieldPaths: false });
  if (co.error !== undefined) return { changed: false };
  const pr = prune(co.value, root, { isResourceRoot: true }).value;
  // the accessor: walk back to the default's position
  let cur: unknown = pr;
  for (const seg of path) {
    if (seg === 'index') {
      if (!Array.isArray(cur) || cur.length === 0) return { changed: true };
      cur = cur[0];
    } else {
      if (!isRecord(cur) || !Object.prototype.hasOwnProperty.call(cur, seg.child)) return { changed: true };
      cur = cur[seg.child];
    }
  }
  return deepEqual(cur, def) ? { changed: false } : { changed: true, value: cur };
}
