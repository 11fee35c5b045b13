/**
 * CEL runtime cost on custom resources, replayed on real apiextensions-apiservers (1.36, a minor, and
 * 1.37, the default server): rules whose actual cost lands just under and just over the per-call
 * limit (1,000,000), objects that run out of the per-object budget (10,000,000) part way, a
 * messageExpression over the limit, and the 1.37 cost changes (startsWith/endsWith by the argument,
 * the global matches() as the member form). crdx must evaluate every rule and its causes must be
 * the server's, exactly (the server's answer is the expectation).
 */
import { describe } from 'vitest';
import type { KubeVersion } from '../../src/core/kube-version.js';
import { defaultMinor, goAvailable } from './harness.js';
import type { Lib } from './cel-libs.cases.js';
import { replayLibraries } from './cel-libs.replay.js';

const HAVE_GO = goAvailable();

const ints = (n: number) => Array.from({ length: n }, (_, i) => i);
const strs = (n: number, s: string) => Array.from({ length: n }, () => s);

/** 7n² + 6n + 3: 377 → 997,168 (under the limit), 378 → 1,002,459 (over). */
const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `s${i}`);
const NESTED = 'self.l.all(a, self.l.all(b, a + b >= 0))';

export const COST_LIBS: readonly Lib[] = [
  {
    // ext/sets.go trackSetsCost: 1 + |a|·|b| (equivalent: twice that), plus the selections
    name: 'setscost',
    props: { a: { type: 'array', maxItems: 1100, items: { type: 'integer' } }, b: { type: 'array', maxItems: 1100, items: { type: 'integer' } } },
    rules: [
      ['!has(self.a) || !has(self.b) || sets.intersects(self.a, self.b) || size(self.a) >= 0', 'intersects'],
      ['!has(self.a) || !has(self.b) || size(self.a) > 720 || !sets.equivalent(self.a, self.b) || size(self.a) >= 0', 'equivalent'],
    ],
    cases: { Under: { a: ints(999), b: ints(1000) }, Over: { a: ints(1000), b: ints(1000) }, EqUnder: { a: ints(707), b: ints(707) }, EqOver: { a: ints(708), b: ints(708) } },
  },
  {
    name: 'percall',
    props: { l: { type: 'array', maxItems: 400, items: { type: 'integer' } } },
    rules: [[NESTED, 'non-negative sums']],
    cases: { Under377: { l: ints(377) }, Over378: { l: ints(378) }, Small: { l: [1, -5, 2] }, Over400: { l: ints(400) } },
  },
  {
    // two-variable comprehensions cost as the one-variable ones: the same boundary
    name: 'percalltwovar',
    props: { l: { type: 'array', maxItems: 400, items: { type: 'integer' } } },
    rules: [['self.l.all(i, a, self.l.exists(j, b, a + b < 0) == false)', 'non-negative sums']],
    // 8n² + 7n + 3: 353 → 999,346, 354 → 1,005,009
    cases: { Under: { l: ints(353) }, Over: { l: ints(354) }, EarlyExit: { l: [-1, ...ints(380)] } },
  },
  {
    // transformList: 15n² + 16n + 5: 257 → 994,852, 258 → 1,002,593
    name: 'percalltransform',
    props: { l: { type: 'array', maxItems: 300, items: { type: 'integer' } } },
    rules: [['self.l.transformList(i, a, self.l.transformList(j, b, a + b).size()).size() > 0', 'not empty']],
    cases: { Under: { l: ints(257) }, Over: { l: ints(258) }, Empty: { l: [] } },
  },
  {
    // optionals: optional.of() and hasValue() a call each (cel-go's default cost 1), no variable read
    // for the namespace: 8n² + 7n + 3 like three calls (353 → 999,346 under, 354 over)
    name: 'optionalcalls',
    props: { l: { type: 'array', maxItems: 400, items: { type: 'integer' } } },
    rules: [['self.l.all(a, self.l.all(b, optional.of(a + b).hasValue()))', 'r']],
    cases: { Under: { l: ints(353) }, Over: { l: ints(354) } },
  },
  {
    // orValue() is the planner's evalOptionalOrValue, no call: the same boundary as above
    name: 'optionalorvalue',
    props: { l: { type: 'array', maxItems: 400, items: { type: 'integer' } } },
    rules: [['self.l.all(a, self.l.all(b, optional.of(a + b).orValue(0) >= 0))', 'r']],
    cases: { Under: { l: ints(353) }, Over: { l: ints(354) } },
  },
  {
    // value() a call: four calls, 332 under, 333 over
    name: 'optionalvalue',
    props: { l: { type: 'array', maxItems: 400, items: { type: 'integer' } } },
    rules: [['self.l.all(a, self.l.all(b, optional.of(a + b).value() >= 0))', 'r']],
    cases: { Under: { l: ints(332) }, Over: { l: ints(333) } },
  },
  {
    // ext/lists.go cost trackers (lists v3): a sort() of one overload costs 2n² + 11
    name: 'listsort',
    props: { l: { type: 'array', maxItems: 100, items: { type: 'integer' } } },
    rules: [['self.l.all(a, self.l.sort().size() > 0)', 'r']],
    cases: { Under: { l: ints(79) }, Over: { l: ints(80) } },
  },
  {
    // strings: 2.1n² (StringTraversalCostFactor added)
    name: 'listsortstrings',
    props: { l: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 5 } } },
    rules: [['self.l.all(a, self.l.sort().size() > 0)', 'r']],
    cases: { Under: { l: names(78) }, Over: { l: names(79) } },
  },
  {
    // a sort() the checker left several overloads (dyn elements): no tracker, the default 1
    name: 'listsortdyn',
    props: { l: { type: 'array', maxItems: 100, items: { 'x-kubernetes-int-or-string': true } } },
    rules: [['self.l.all(a, self.l.sort().size() > 0)', 'r']],
    cases: { Cheap: { l: ints(100) } },
  },
  {
    name: 'listdistinct',
    props: { l: { type: 'array', maxItems: 100, items: { type: 'integer' } } },
    rules: [['self.l.all(a, self.l.distinct().size() > 0)', 'r']],
    cases: { Under: { l: ints(79) }, Over: { l: ints(80) } },
  },
  {
    // the result's size + 11
    name: 'listreverse',
    props: { l: { type: 'array', maxItems: 1100, items: { type: 'integer' } } },
    rules: [['self.l.all(a, self.l.reverse().size() > 0)', 'r']],
    cases: { Under: { l: ints(991) }, Over: { l: ints(992) } },
  },
  {
    name: 'listsrange',
    props: { l: { type: 'array', maxItems: 600, items: { type: 'integer' } } },
    rules: [['self.l.all(a, lists.range(2000).size() > 0)', 'r']],
    cases: { Under: { l: ints(496) }, Over: { l: ints(497) } },
  },
  {
    name: 'percallrule',
    props: { l: { type: 'array', maxItems: 400, items: { type: 'integer' } } },
    rules: [[NESTED], ['size(self.l) < 1000', 'never reached']],
    cases: { Over: { l: ints(390) }, Fine: { l: ints(10) } },
  },
  {
    name: 'budget',
    // eleven rules of 7n² + 6n + 3 each (the estimate of each stays under its limit): at n = 370 the
    // first ten cost 9,605,230, the eleventh runs the object out of its 10,000,000
    props: { l: { type: 'array', maxItems: 380, items: { type: 'integer' } } },
    rules: [
      ['self.l.all(x, x < 369)', 'below 369'],
      ...Array.from({ length: 11 }, (_, k) => [`self.l.all(a, self.l.all(b, a + b >= -${k}))`, `sums ${k}`] as const),
      ['size(self.l) > 0', 'not reached'],
    ],
    cases: { Fits: { l: ints(300) }, OutOfBudget: { l: ints(370).map((x) => (x === 369 ? 0 : x)) }, FailThenOut: { l: ints(370) }, Negative: { l: [-5, -6] } },
  },
  {
    name: 'msgexpr',
    props: { l: { type: 'array', maxItems: 400, items: { type: 'integer' } } },
    rules: [['size(self.l) < 2', 'too many', `${NESTED} ? 'too many, all sums non-negative' : 'too many, some sum negative'`]],
    cases: { Cheap: { l: [1, 2, 3] }, Costly: { l: ints(390) } },
  },
  {
    name: 'startswith',
    // p = !b.startsWith('x'): 1.36 costs the receiver (11 code points: 2), 1.37 the argument (1)
    props: { l: { type: 'array', maxItems: 400, items: { type: 'string', maxLength: 11 } } },
    rules: [["self.l.all(a, self.l.all(b, !b.startsWith('x')))", 'no x'], ["self.l.all(a, self.l.all(b, !b.endsWith('x')))", 'no x at the end']],
    cases: { N400: { l: strs(400, 'abcdefghijk') }, N300: { l: strs(300, 'abcdefghijk') } },
  },
  {
    name: 'globalmatches',
    // matches(b, 'a+'): 1 before 1.37, (size+1)·0.1 × size(re)·0.25 from 1.37
    props: { l: { type: 'array', maxItems: 420, items: { type: 'string', maxLength: 11 } } },
    rules: [["self.l.all(a, self.l.all(b, matches(b, '^a+$')))", 'only a']],
    cases: { N420: { l: strs(420, 'aaaaaaaaaaa') }, N300: { l: strs(300, 'aaaaaaaaaaa') } },
  },
  {
    // 1.37 (cel-go 0.29): indexOf/lastIndexOf with an empty search string (C7), lists.range limits (C8)
    name: 'runtime137',
    props: { s: { type: 'string', maxLength: 8 }, n: { type: 'integer', minimum: -5, maximum: 20 } },
    rules: [
      ["!has(self.s) || !has(self.n) || self.s.indexOf('', self.n) == 3", 'indexOf is 3'],
      ["!has(self.s) || !has(self.n) || self.s.lastIndexOf('', self.n) == 3", 'lastIndexOf is 3'],
      ['has(self.s) || !has(self.n) || self.n != -1 || lists.range(-1).size() == 0', 'range of -1 is empty'],
    ],
    cases: {
      PastTheEnd: { s: 'abc', n: 5 },
      AtTheEnd: { s: 'abc', n: 3 },
      Negative: { s: 'abc', n: -1 },
      RangeNegative: { n: -1 },
      Range: { n: 4 },
    },
  },
  {
    // timestamp accessors with a time zone: offsets, names, errors; minutes > 59 are added, in 1.37 too
    // (docs/dev/kube-1.37-changes.md C9 expected an error: the server's stdlib path has no such check)
    name: 'runtimetz',
    props: { ts: { type: 'string', format: 'date-time' }, tz: { type: 'string', maxLength: 40 } },
    rules: [['!has(self.ts) || !has(self.tz) || self.ts.getHours(self.tz) == 0', 'midnight there']],
    cases: {
      Offset: { ts: '2024-01-01T18:30:00Z', tz: '+05:30' },
      OffsetNegative: { ts: '2024-01-01T18:30:00Z', tz: '-05:30' },
      Named: { ts: '2024-01-01T18:30:00Z', tz: 'Asia/Kolkata' },
      NamedDst: { ts: '2024-07-01T22:00:00Z', tz: 'Europe/Paris' },
      UTC: { ts: '2024-01-01T00:00:00Z', tz: 'UTC' },
      MinutesOver59: { ts: '2024-01-01T22:45:00Z', tz: '+00:75' },
      Unknown: { ts: '2024-01-01T00:00:00Z', tz: 'Mars/Olympus' },
      BadHours: { ts: '2024-01-01T00:00:00Z', tz: '+0x:00' },
    },
  },
];

for (const minor of [36, 37]) {
  const kube: KubeVersion = { major: 1, minor };
  describe.skipIf(!HAVE_GO)(`CEL runtime cost agrees with a real apiextensions-apiserver 1.${minor}`, () => {
    replayLibraries({ suite: 'cel-runtime-cost', libs: COST_LIBS, kube, server: minor === defaultMinor() ? {} : { minor }, tallyPrefix: `1.${minor} `, caseTimeout: 120_000 });
  });
}
