/**
 * The broken CEL texts cel-syntax.conformance.test.ts sends through cel-go's parser
 * (test/apiserver/celsyntax) and through crdx's syntax-errors.ts: every prefix of every
 * x-kubernetes-validations rule of the CRD corpus (what an editor shows while a rule is typed), a
 * list of broken texts as people write them, and 4,000 seeded one- or two-character edits of the
 * corpus rules. Built at test time from ../shared/corpus: no corpus text is kept in the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const BROKEN: readonly string[] = [
 'self.a >', "'x' + ", 'self.a + ', 'self.a == (1', '(self.a', 'self.a)', '[1, 2', '[1, 2]]', '{"a": 1', "'abc", '"abc', "self.a == 'x", 'self.a ==', '== self.a', 'self.a && ', '|| self.b', 'self.a ? 1', 'self.a ? 1 :', 'self.a # 1', 'self.a @ b', 'self.a $', 'self..a', 'self.', 'self.a.', 'self.a[', 'self.a[0', 'self.a[]', 'size(', 'size(self.a', 'size(self.a,', 'self.a.all(x, ', 'self.a.all(x', 'self.all(x, x > 0', 'has(self.a', 'has(self.a.', '1 +* 2', '1 ** 2', 'self.a = 1', 'self.a === 1', 'self.a != ', '!', '-', '!self.a &&', 'a b', 'self.a self.b', 'self.a == 1 self.b', 'self.a.size() > 0)', '((self.a)', '))', '(', '[', '{', '}', ']', '.', ',', ':', '?', 'self.a ~ 1', 'self.a ; 1', "self.a == \"x'", 'self.a == `x`', '1..2', 'self.a in [1, 2', 'self.a in', 'x in', 'in self.a', "self.a.matches('^a", 'self.a.startsWith(', 'self.a < 1 < ', 'self.a || self.b ||', 'self.a ? : 1', '[1,,2]', '{1:}', '{:1}', 'self.a.b(,)', 'f(1,)', 'self.a == 1 &&& self.b', 'self.a & self.b', 'self.a | self.b', 'self.a == null &&', 'self.a ==> 1', "b'abc", "r'abc", '"""abc', 'self.a == 1.', '1e', '0x', 'self.a == 0xg', 'true false', 'null null', "'a' 'b'", 'self.a.?b', 'self.?a', 'self.a[?0', '[?1, 2', '{?"a": 1', 'self.a + -', 'self.a * / 2', 'self.map(x, x +', "self.a == 'it\\'s", "self.a == '\\q'", 'ü', 'self.a ≥ 1', 'self.a ≠ 1', 'self.a && || self.b', 'self.a\n&& ', 'self.a\n  && (self.b', 'self.a ==\n', 'self.a.exists(e, e.name == "x"', 'self.a.exists(e, e.name == "x")))', 'oldSelf == self ||', 'self.x.y.z)', '!(self.a', 'self[0', "self['a'", 'self.a == [', 'self.a == {', 'self.a == {1', 'self.a == {1:', '1 +', '1 -', '1 *', '1 %', '1 /', '1 <', '1 <=', '1 >=', '1 ==', '1 !=', 'a.b.c(', 'a.b.c(1', 'a.b.c(1,', 'type(', 'int(self.a', 'duration("1s"', "timestamp('x'",
  '{"a"', '[1,', '[(1', "self.matches('^[a-z", 'has(self.a[0', 'self.all(x.y, z', 'has(self.a +', 'has(a.b.', '--', '- ', 'self.?', 'a.b{', '.a.', 'f(a, [1', '[1 2', 'self.a 1', '1 (2)', '{1: 2, ', 'has(self.a) && has(s',
];

/** The rules of every YAML or JSON file under `dir`, in the order of the files' sorted paths. */
export function corpusRules(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ya?ml|json)$/.test(e.name)) files.push(p);
    }
  };
  walk(dir);
  files.sort();
  const rules = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'x-kubernetes-validations' && Array.isArray(x)) for (const r of x) if (r !== null && typeof r === 'object' && typeof (r as { rule?: unknown }).rule === 'string') rules.add((r as { rule: string }).rule);
        visit(x);
      }
  };
  for (const f of files) {
    try {
      for (const d of parseAllDocuments(readFileSync(f, 'utf8'))) visit(d.toJS({ maxAliasCount: -1 }));
    } catch {
      // not YAML: skipped
    }
  }
  return [...rules];
}

/** The texts: the rules' prefixes, BROKEN, then the seeded edits (seed 20261128), each once. */
export function referenceTexts(rules: readonly string[]): string[] {
  const exprs = new Set<string>();
  for (const r of rules) {
    const cps = [...r];
    for (let i = 1; i <= cps.length; i++) exprs.add(cps.slice(0, i).join(''));
  }
  for (const b of BROKEN) exprs.add(b);
  let seed = 20261128;
  const rnd = (n: number): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const chars = [...'()[]{}.,\'"!-+*/%<>=&|?:#$@`\\ \nabcxyz019_ü'];
  for (let i = 0; i < 4000 && rules.length > 0; i++) {
    const r = [...rules[rnd(rules.length)]!];
    for (let edits = 1 + (rnd(3) === 0 ? 1 : 0); edits > 0; edits--) {
      const k = rnd(r.length);
      const c = chars[rnd(chars.length)]!;
      const op = rnd(4);
      if (op === 0) r.splice(k, 1);
      else if (op === 1) r.splice(k, 0, c);
      else if (op === 2) r[k] = c;
      else {
        r.splice(k, 0, c);
        r.length = k + 1;
      }
    }
    if (r.length > 0) exprs.add(r.join(''));
  }
  return [...exprs];
}
