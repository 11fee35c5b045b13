/**
 * The cost mutations of cel-cost.conformance.test.ts: remove, tighten or loosen bounds; add or nest
 * comprehensions; index list literals and compare Kubernetes values (where the estimators of cel-go
 * before 0.23 and of Kubernetes before 1.32 differ from today's: cost.ts entrySizes, k8sEqualityCost).
 */
export type Obj = Record<string, unknown>;
export const COST = /estimated rule cost|estimated messageExpression cost|contributed to estimated rule cost total|estimated rule cost total for entire/;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every schema node reachable through properties / additionalProperties / items, with its parent chain. */
function nodes(crd: Obj): Obj[] {
  const out: Obj[] = [];
  const walk = (s: unknown): void => {
    if (!isObj(s)) return;
    out.push(s);
    if (isObj(s['properties'])) for (const p of Object.values(s['properties'])) walk(p);
    if (isObj(s['additionalProperties'])) walk(s['additionalProperties']);
    if (isObj(s['items'])) walk(s['items']);
  };
  const spec = crd['spec'] as Obj;
  for (const v of (spec['versions'] as Obj[] | undefined) ?? []) walk((v['schema'] as Obj | undefined)?.['openAPIV3Schema']);
  if (isObj(spec['validation'])) walk(spec['validation']['openAPIV3Schema']);
  return out;
}

const hasRules = (s: Obj): boolean => Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0;
const isMap = (s: Obj): boolean => s['type'] === 'object' && isObj(s['additionalProperties']);
const isPlainString = (s: Obj): boolean => s['type'] === 'string' && s['format'] === undefined && s['enum'] === undefined;
const addRule = (s: Obj, rule: string): void => {
  const v = Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : [];
  s['x-kubernetes-validations'] = [...v, { rule, message: 'cost probe' }];
};

export type Mutation = [name: string, apply: (crd: Obj) => boolean];

export const MUTATIONS: Mutation[] = [
  ['original', () => true],
  ['no maxItems', (c) => strip(c, 'maxItems')],
  ['no maxLength', (c) => strip(c, 'maxLength')],
  ['no maxProperties', (c) => strip(c, 'maxProperties')],
  ['no bounds', (c) => [strip(c, 'maxItems'), strip(c, 'maxLength'), strip(c, 'maxProperties')].some(Boolean)],
  ['tight bounds', (c) => bound(c, 8, 64)],
  ['loose bounds', (c) => bound(c, 2000, 4096)],
  ['nested all on lists', (c) => nest(c, 'self.all(a, self.all(b, self.all(c, true)))', 3)],
  ['nested all on lists, tight', (c) => nest(c, 'self.all(a, self.all(b, self.all(c, true)))', 3) && bound(c, 8, 64)],
  ['nested all on lists, maxItems 250', (c) => nest(c, 'self.all(a, self.all(b, self.all(c, true)))', 3) && bound(c, 250, 64, true)],
  ['exists in rule nodes', (c) => wrapRules(c)],
  ['string scans', (c) => strings(c)],
  ['indexed list literals', (c) => literals(c)],
  ['quantity equality', (c) => quantities(c)],
];

/**
 * On the first few object nodes with a plain string property, a scan of an element of a list
 * literal: sized by the literal's entries from cel-go 0.23 (here unknown: an optional field), by
 * the node through the field path before.
 */
function literals(crd: Obj): boolean {
  let n = 0;
  for (const s of nodes(crd)) {
    if (n >= 3 || s['type'] !== 'object' || !isObj(s['properties'])) continue;
    const k = Object.entries(s['properties']).find(([name, p]) => /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name) && isObj(p) && isPlainString(p) && p['default'] === undefined)?.[0];
    if (k === undefined) continue;
    addRule(s, `[?self.?${k}, ?self.?${k}][0].contains('x') || true`);
    n++;
  }
  return n > 0;
}

/** A comparison of two quantities on the first node with rules: costed only from 1.32. */
function quantities(crd: Obj): boolean {
  const s = nodes(crd).find(hasRules);
  if (s === undefined) return false;
  addRule(s, "quantity('1Gi') == quantity('1024Mi')");
  return true;
}

function strip(crd: Obj, key: string): boolean {
  let n = 0;
  for (const s of nodes(crd))
    if (key in s) {
      delete s[key];
      n++;
    }
  return n > 0;
}

/** Adds maxItems / maxProperties / maxLength where none is declared (overwrites when `force`). */
function bound(crd: Obj, items: number, length: number, force = false): boolean {
  let n = 0;
  for (const s of nodes(crd)) {
    if (s['type'] === 'array' && (force || s['maxItems'] === undefined)) (s['maxItems'] = items), n++;
    if (isMap(s) && (force || s['maxProperties'] === undefined)) (s['maxProperties'] = items), n++;
    // a bound below an existing minLength or default would be a schema error of its own
    if (isPlainString(s) && s['maxLength'] === undefined && s['default'] === undefined && s['minLength'] === undefined) (s['maxLength'] = length), n++;
  }
  return n > 0;
}

/** A nested comprehension on the first `k` lists of the schema. */
function nest(crd: Obj, rule: string, k: number): boolean {
  const lists = nodes(crd).filter((s) => s['type'] === 'array' && isObj(s['items']));
  for (const s of lists.slice(0, k)) addRule(s, rule);
  return lists.length > 0;
}

/** Each node with rules gets one more rule that iterates over its lists and maps. */
function wrapRules(crd: Obj): boolean {
  let n = 0;
  for (const s of nodes(crd).filter(hasRules)) {
    const props = isObj(s['properties']) ? s['properties'] : {};
    for (const [k, p] of Object.entries(props)) {
      if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(k) || !isObj(p)) continue;
      if (p['type'] === 'array' || isMap(p)) {
        addRule(s, `!has(self.${k}) || self.${k}.all(x, self.${k}.exists(y, true))`);
        n++;
        break;
      }
    }
  }
  return n > 0;
}

/** String functions over the first few plain strings. */
function strings(crd: Obj): boolean {
  // strings with a default are left alone: the server checks defaults against the rules too
  const ss = nodes(crd).filter((s) => isPlainString(s) && s['default'] === undefined).slice(0, 4);
  ss.forEach((s, i) => addRule(s, ['self.matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")', "self.contains('x') || self.startsWith('y')", "self.split('/').size() < 50", "self.lowerAscii() != self"][i]!));
  return ss.length > 0;
}

