/**
 * Records cel-go's parse error texts for test/schema/cel/syntax-errors.test.ts: every prefix of
 * every x-kubernetes-validations rule of a CRD corpus (what the editor shows while a rule is typed)
 * and a list of broken texts, each with cel-go's text (test/apiserver/celsyntax, Go and the module
 * cache), into syntax-errors.vectors.json.gz.
 *
 *     node test/schema/cel/syntax-errors-record.mjs /work/shared/corpus/crds
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { parseAllDocuments } from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = process.argv[2];
if (!corpus) throw new Error('usage: syntax-errors-record.mjs <corpus dir>');

const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.(ya?ml|json)$/.test(e.name)) files.push(p);
  }
})(corpus);
files.sort();
const rules = new Set();
const visit = (v) => {
  if (Array.isArray(v)) v.forEach(visit);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      if (k === 'x-kubernetes-validations' && Array.isArray(x)) for (const r of x) if (r && typeof r.rule === 'string') rules.add(r.rule);
      visit(x);
    }
};
for (const f of files) {
  try {
    for (const d of parseAllDocuments(fs.readFileSync(f, 'utf8'))) visit(d.toJS({ maxAliasCount: -1 }));
  } catch {
    // not YAML: skipped
  }
}

const exprs = new Set();
for (const r of rules) {
  const cps = [...r];
  for (let i = 1; i <= cps.length; i++) exprs.add(cps.slice(0, i).join(''));
}
// broken texts as people write them
const broken = [
 'self.a >', "'x' + ", 'self.a + ', 'self.a == (1', '(self.a', 'self.a)', '[1, 2', '[1, 2]]', '{"a": 1', "'abc", '"abc', "self.a == 'x", 'self.a ==', '== self.a', 'self.a && ', '|| self.b', 'self.a ? 1', 'self.a ? 1 :', 'self.a # 1', 'self.a @ b', 'self.a $', 'self..a', 'self.', 'self.a.', 'self.a[', 'self.a[0', 'self.a[]', 'size(', 'size(self.a', 'size(self.a,', 'self.a.all(x, ', 'self.a.all(x', 'self.all(x, x > 0', 'has(self.a', 'has(self.a.', '1 +* 2', '1 ** 2', 'self.a = 1', 'self.a === 1', 'self.a != ', '!', '-', '!self.a &&', 'a b', 'self.a self.b', 'self.a == 1 self.b', 'self.a.size() > 0)', '((self.a)', '))', '(', '[', '{', '}', ']', '.', ',', ':', '?', 'self.a ~ 1', 'self.a ; 1', "self.a == \"x'", 'self.a == `x`', '1..2', 'self.a in [1, 2', 'self.a in', 'x in', 'in self.a', "self.a.matches('^a", 'self.a.startsWith(', 'self.a < 1 < ', 'self.a || self.b ||', 'self.a ? : 1', '[1,,2]', '{1:}', '{:1}', 'self.a.b(,)', 'f(1,)', 'self.a == 1 &&& self.b', 'self.a & self.b', 'self.a | self.b', 'self.a == null &&', 'self.a ==> 1', "b'abc", "r'abc", '"""abc', 'self.a == 1.', '1e', '0x', 'self.a == 0xg', 'true false', 'null null', "'a' 'b'", 'self.a.?b', 'self.?a', 'self.a[?0', '[?1, 2', '{?"a": 1', 'self.a + -', 'self.a * / 2', 'self.map(x, x +', "self.a == 'it\\'s", "self.a == '\\q'", 'ü', 'self.a ≥ 1', 'self.a ≠ 1', 'self.a && || self.b', 'self.a\n&& ', 'self.a\n  && (self.b', 'self.a ==\n', 'self.a.exists(e, e.name == "x"', 'self.a.exists(e, e.name == "x")))', 'oldSelf == self ||', 'self.x.y.z)', '!(self.a', 'self[0', "self['a'", 'self.a == [', 'self.a == {', 'self.a == {1', 'self.a == {1:', '1 +', '1 -', '1 *', '1 %', '1 /', '1 <', '1 <=', '1 >=', '1 ==', '1 !=', 'a.b.c(', 'a.b.c(1', 'a.b.c(1,', 'type(', 'int(self.a', 'duration("1s"', "timestamp('x'",
  '{"a"', '[1,', '[(1', "self.matches('^[a-z", 'has(self.a[0', 'self.all(x.y, z', 'has(self.a +', 'has(a.b.', '--', '- ', 'self.?', 'a.b{', '.a.', 'f(a, [1', '[1 2', 'self.a 1', '1 (2)', '{1: 2, ', 'has(self.a) && has(s',
];
for (const b of broken) exprs.add(b);

// one or two edits (a character deleted, inserted, replaced; the text cut after an insertion) of
// rules, from a fixed seed
let seed = 20261128;
const rnd = (n) => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) % n;
};
const chars = [...'()[]{}.,\'"!-+*/%<>=&|?:#$@`\\ \nabcxyz019_ü'];
const ruleList = [...rules];
for (let i = 0; i < 4000; i++) {
  const r = [...ruleList[rnd(ruleList.length)]];
  for (let edits = 1 + (rnd(3) === 0 ? 1 : 0); edits > 0; edits--) {
    const k = rnd(r.length);
    const c = chars[rnd(chars.length)];
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

const input = [...exprs].map((s) => JSON.stringify(s)).join('\n') + '\n';
const out = execFileSync('go', ['run', './celsyntax'], { cwd: path.join(here, '../../apiserver'), input, maxBuffer: 1 << 30, env: { ...process.env, GOFLAGS: '-mod=mod' } }).toString();
const cases = out
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l))
  .map((x) => [x.expr, x.err]);
fs.writeFileSync(path.join(here, 'syntax-errors.vectors.json.gz'), zlib.gzipSync(JSON.stringify({ celGo: 'v0.29.2', rules: rules.size, cases }), { level: 9 }));
console.log(`${rules.size} rules, ${cases.length} texts, ${cases.filter((c) => c[1] !== null).length} rejected`);
