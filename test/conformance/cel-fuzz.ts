/**
 * A seeded generator of CEL rules over one schema (FUZZ_PROPS at spec): expressions built by the type
 * they should have, from the schema's fields, literals, operators and the Kubernetes libraries, with
 * some operands deliberately of another type (so that the checker's texts are compared as well as its
 * successes), comprehensions over bounded and unbounded lists (so that cost verdicts fall on both sides
 * of the budget) and a messageExpression now and then. Used by cel-fuzz.conformance.test.ts; the same
 * seed gives the same rules.
 */
import { rng } from '../helpers/rng.js';
import { CORE_PROPS } from './cel-create.js';

/** The schema of spec: every declared type a rule can meet, two fields without a size bound. */
export const FUZZ_PROPS = `${CORE_PROPS}
                ulist: {type: array, items: {type: string}}
                umap: {type: object, additionalProperties: {type: integer}}`;

type T = 'int' | 'uint' | 'double' | 'string' | 'bool' | 'bytes' | 'duration' | 'timestamp' | 'list<int>' | 'list<string>' | 'map<string,string>' | 'map<string,int>' | 'dyn' | 'obj';
const SCALARS: readonly T[] = ['int', 'uint', 'double', 'string', 'bool', 'bytes', 'duration', 'timestamp'];
const ALL: readonly T[] = [...SCALARS, 'list<int>', 'list<string>', 'map<string,string>', 'map<string,int>', 'dyn', 'obj'];

interface Scope {
  readonly vars: readonly { name: string; type: T }[];
}

/** One generated rule with the fields of its x-kubernetes-validations entry. */
export interface FuzzRule {
  readonly rule: string;
  readonly messageExpression?: string;
  readonly fieldPath?: string;
  readonly reason?: string;
  readonly optionalOldSelf?: boolean;
}

/** The rule's x-kubernetes-validations entry. */
export function validationOf(r: FuzzRule): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
}

/** The spec values of random objects for FUZZ_PROPS: mostly valid by the schema, fields left out now and then. */
export function objectGenerator(seed: number): () => Record<string, unknown> {
  const rnd = rng(seed);
  const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rnd() * xs.length)]!;
  const some = <X>(n: number, f: () => X): X[] => Array.from({ length: Math.floor(rnd() * (n + 1)) }, f);
  const strs = ['', 'a', 'abc', 'a,b', 'x.io', '1.2.3.4', '::1', '10.0.0.0/8', 'https://x.io/p', 'http://[::1]:80', '1Gi', '500m', 'ABC', 'zzz', '1.0.0', 'v1.2.3', 'é', 'a b', '%', 'x-y.z'];
  const short = ['', 'a', 'b', 'ab', 'abc', 'x', 'é', 'Z'];
  const gens: Record<string, () => unknown> = {
    replicas: () => pick([0, 1, -1, 2, 42, 9007199254740991, -9223372036854775808, 3]),
    name: () => pick(strs),
    ratio: () => pick([0, 0.5, -1.5, 1e300, 3, 2.25]),
    flag: () => pick([true, false]),
    ios: () => pick([0, 5, '5', '50%', 'x', -3]),
    raw: () => pick([{}, { x: 1 }, { x: 'a', y: [1, 2] }, { y: { z: true } }, { x: null }]),
    start: () => pick(['2020-01-01T00:00:00Z', '1970-01-01T00:00:00Z', '2024-02-29T23:59:59.123456789+01:00', '9999-12-31T23:59:59Z', '2021-06-01T12:00:00-07:00']),
    timeout: () => pick(['1s', '0s', '1h30m', '-5m', '1.5h', '100ns', '2562047h']),
    data: () => pick(['', 'YWJj', 'eA==', '/w==', 'AAAA']),
    items: () => some(5, () => pick([0, 1, 2, 3, -7, 100])),
    tags: () => Object.fromEntries(some(5, () => [pick(['a', 'b', 'c', 'd', 'e', 'f']), pick(short)])),
    set: () => [...new Set(some(5, () => pick(short)))],
    objs: () => {
      const names = [...new Set(some(3, () => pick(['a', 'b', 'c', 'x'])))];
      return names.map((n) => (rnd() < 0.7 ? { name: n, n: pick([0, 1, 5, -2]) } : { name: n }));
    },
    ulist: () => some(6, () => pick(strs)),
    umap: () => Object.fromEntries(some(4, () => [pick(['a', 'b', 'k', 'z']), pick([0, 1, -5, 99])])),
    'dash-name': () => pick(short),
    namespace: () => pick(short),
  };
  return () => {
    const spec: Record<string, unknown> = {};
    for (const [k, g] of Object.entries(gens)) if (rnd() < 0.8) spec[k] = g();
    return spec;
  };
}

export function ruleGenerator(seed: number): () => FuzzRule {
  const rnd = rng(seed);
  const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rnd() * xs.length)]!;
  const chance = (p: number): boolean => rnd() < p;
  let varN = 0;

  const atoms: Record<T, readonly string[]> = {
    int: ['self.name.size() * 9223372036854775807', 'self.replicas / self.items.size()', 'self.replicas % self.items.size()', "semver(self.name).major()", "ip(self.name).family()", "int(self.name)", 'self.replicas - 9223372036854775807 - 2', 'self.start.getMilliseconds()', "self.start.getHours('Asia/Kolkata')", 'self.timeout.getMinutes()', 'int(self.start)', 'self.items.sum()', "self.items.indexOf(1)", "self.set.lastIndexOf('a')", "quantity('2').asInteger()", "self.start.getHours('America/New_York')", 'self.start.getDayOfWeek()', 'size(self.data)', "int('x')", 'oldSelf.replicas', 'self.replicas', '1', '0', '-3', '42', 'size(self.name)', 'self.items.size()', 'self.objs[0].n', 'self.umap.size()', 'self.items[0]', "self.umap['a']", 'self.timeout.getSeconds()', 'self.start.getFullYear()', "self.name.indexOf('a')", 'self.ulist.size()', "self.?objs[0].n.orValue(0)", 'int(self.ratio)'],
    uint: ['1u', '0u', 'uint(self.replicas)', '18446744073709551615u'],
    double: ['self.ratio', '1.5', '0.0', 'double(self.replicas)', "quantity('1Gi').asApproximateFloat()", '-2.5e3'],
    string: ['self.name.substring(self.items.size())', 'self.name.charAt(5)', 'string(self.ratio)', 'string(self.start)', 'string(self.timeout)', 'string(self.data)', "'%e'.format([self.ratio])", "'%.3f'.format([self.ratio])", "'%x'.format([self.name])", "'%o'.format([self.replicas])", "'%b'.format([self.replicas])", "'%s'.format([self.items])", "'%s'.format([self.tags])", 'ip(self.name).string()', 'cidr(self.name).masked().string()', 'string(self.start + self.timeout)', "url(self.name).getPort()", 'string(self.ios)', "self.name.replace('', '-')", "self.name.split('')[0]", 'self.name', "'abc'", "''", "self.tags['a']", 'self.set[0]', 'self.objs[0].name', 'self.dash__dash__name', 'self.__namespace__', 'string(self.replicas)', 'self.name.lowerAscii()', "self.name.replace('a', 'b')", 'self.name.trim()', "self.set.join(',')", 'self.ulist[0]', "url('https://x.io/p').getHost()", "'%s-%d'.format([self.name, self.replicas])", 'self.name.substring(1)', "self.?tags['a'].orValue('')", 'string(self.ios)', 'self.name.upperAscii()', "self.name.charAt(0)", "self.name.find('[a-z]+')"],
    bool: ["quantity(self.name).isGreaterThan(quantity('1'))", "semver(self.name, true).isGreaterThan(semver('1.0.0'))", "url(self.name).getPort() == '80'", 'ip(self.name).family() == 6', "cidr(self.name).containsIP(ip('1.2.3.4'))", 'self.name.matches(self.set[0])', 'self.ulist.isSorted()', 'self.items.sum() > 0', "self.timeout > duration('0s')", 'self.start + self.timeout > self.start', 'timestamp(self.name) > self.start', "duration(self.name) > duration('1s')", 'double(self.name) > 0.0', 'bool(self.name)', "self.data == b'abc'", 'self.ratio > double(self.replicas)', 'self.replicas > self.ratio', "self.ios == 5 || self.ios == '5'", 'self == oldSelf', 'self.replicas >= oldSelf.replicas', "quantity('1').isInteger()", "self.name.matches('[')", "quantity('1').add(quantity('1Ki')).isLessThan(quantity('2Ki'))", "optional.of(1).orValue(2) == 1", "optional.none().hasValue()", 'self.flag', 'true', 'false', 'has(self.name)', "self.name.startsWith('a')", "self.name.matches('^[a-z]+$')", "'a' in self.set", "'a' in self.tags", "isQuantity(self.name)", 'isURL(self.name)', "isIP(self.name)", 'isCIDR(self.name)', 'self.?name.hasValue()', 'self.items.isSorted()', "sets.contains(self.set, ['a'])", 'has(self.raw.x)', "self.name.contains('x')", "self.name.endsWith('z')", "quantity('1Gi').isGreaterThan(quantity('1Mi'))"],
    bytes: ['self.data', "b'abc'", 'bytes(self.name)'],
    duration: ['self.timeout', "duration('1s')", "duration('1h30m')", "self.start - timestamp('2020-01-01T00:00:00Z')"],
    timestamp: ['self.start', "timestamp('2020-01-01T00:00:00Z')", "self.start + duration('1h')"],
    'list<int>': ['self.items.transformList(i, v, v + i)', 'self.items.first()', 'self.items', '[1, 2, 3]', '[]', 'self.items.map(x, x * 2)', 'self.items.filter(x, x > 1)', 'lists.range(3)', 'self.items.slice(0, 1)', 'self.items.sort()', 'self.items.distinct()', 'self.items.reverse()', 'self.objs.map(o, o.n)', 'self.umap.map(k, self.umap[k])'],
    'list<string>': ["self.tags.transformList(k, v, k + v)", 'self.set', "['a', 'b']", "self.name.split(',')", 'self.tags.map(k, k)', 'self.ulist', 'self.objs.map(o, o.name)', "self.ulist.filter(s, s != '')", 'self.umap.map(k, k)'],
    'map<string,string>': ['self.tags', "{'a': 'b'}", "self.tags.transformMap(k, v, v + 'x')", "self.set.transformMapEntry(i, v, {v: 'x'})"],
    'map<string,int>': ['self.umap', "{'a': 1}"],
    dyn: ['self.ios', 'self.raw', 'self.raw.x', 'dyn(self.replicas)', 'self.raw.?y.orValue(1)'],
    obj: ['self.objs[0]', 'self.objs[1]'],
  };

  function expr(t: T, depth: number, s: Scope): string {
    // now and then an operand of another type: the checker's error texts
    if (chance(0.04)) t = pick(ALL);
    // and one the checker takes as it is: a dyn value, of whatever type at runtime (cel-go's
    // runtime texts of calls and operators no overload takes)
    else if (t !== 'dyn' && chance(0.04)) return chance(0.5) ? 'self.ios' : `dyn(${expr(pick(ALL), depth - 1, s)})`;
    const vs = s.vars.filter((v) => v.type === t);
    if (vs.length > 0 && chance(0.4)) return pick(vs).name;
    if (depth <= 0 || chance(0.3)) return pick(atoms[t]);
    const d = depth - 1;
    switch (t) {
      case 'int':
        return pick([
          () => `${expr('int', d, s)} ${pick(['+', '-', '*', '/', '%'])} ${expr('int', d, s)}`,
          () => `size(${expr(pick(['string', 'list<int>', 'list<string>', 'map<string,int>', 'bytes']), d, s)})`,
          () => `${expr('list<int>', d, s)}.${pick(['sum()', 'min()', 'max()', 'size()'])}`,
          () => `${expr('bool', d, s)} ? ${expr('int', d, s)} : ${expr('int', d, s)}`,
          () => `int(${expr(pick(['double', 'string', 'uint', 'timestamp', 'dyn']), d, s)})`,
          () => `${expr('list<int>', d, s)}[${expr('int', d, s)}]`,
          () => `math.greatest(${expr('int', d, s)}, ${expr('int', d, s)})`,
          () => `${expr('string', d, s)}.lastIndexOf(${expr('string', d, s)})`,
          () => `quantity(${expr('string', d, s)}).compareTo(quantity('1'))`,
        ])();
      case 'uint':
        return `${expr('uint', d, s)} ${pick(['+', '*', '-'])} ${expr('uint', d, s)}`;
      case 'double':
        return pick([
          () => `${expr('double', d, s)} ${pick(['+', '-', '*', '/'])} ${expr('double', d, s)}`,
          () => `double(${expr(pick(['int', 'string', 'uint']), d, s)})`,
          () => `math.ceil(${expr('double', d, s)})`,
        ])();
      case 'string':
        return pick([
          () => `${expr('string', d, s)} + ${expr('string', d, s)}`,
          () => `string(${expr(pick(SCALARS), d, s)})`,
          () => `${expr('bool', d, s)} ? ${expr('string', d, s)} : ${expr('string', d, s)}`,
          () => `${expr('list<string>', d, s)}.join(${chance(0.5) ? expr('string', d, s) : ''})`,
          () => `${expr('string', d, s)}.${pick(['lowerAscii()', 'upperAscii()', 'trim()', 'reverse()'])}`,
          () => `${expr('string', d, s)}.substring(${expr('int', d, s)})`,
          () => `'%${pick(['s', 'd', 'f', 'x', 'b', 'o', 'e', '.2f'])}'.format([${expr(pick(SCALARS), d, s)}])`,
          () => `${expr('map<string,string>', d, s)}[${expr('string', d, s)}]`,
          () => `${expr('list<string>', d, s)}[${expr('int', d, s)}]`,
          () => `url(${expr('string', d, s)}).${pick(['getScheme()', 'getHost()', 'getPath()', 'getPort()', 'getEscapedPath()'])}`,
          () => `ip(${expr('string', d, s)}).string()`,
          () => `cidr(${expr('string', d, s)}).ip().string()`,
          () => `${expr('string', d, s)}.replace(${expr('string', d, s)}, ${expr('string', d, s)})`,
          () => `strings.quote(${expr('string', d, s)})`,
        ])();
      case 'bool':
        return pick([
          () => `${expr('bool', d, s)} ${pick(['&&', '||'])} ${expr('bool', d, s)}`,
          () => `!${expr('bool', d, s)}`,
          () => {
            const u = pick(SCALARS);
            return `${expr(u, d, s)} ${pick(['==', '!=', '<', '<=', '>', '>='])} ${expr(u, d, s)}`;
          },
          () => `${expr('int', d, s)} ${pick(['==', '<', '>='])} ${expr(pick(['double', 'uint']), d, s)}`,
          () => comprehension(d, s),
          () => comprehension(d, s),
          () => `${expr('string', d, s)}.${pick(['startsWith', 'endsWith', 'contains', 'matches'])}(${expr('string', d, s)})`,
          () => `${expr('string', d, s)} in ${expr(pick(['list<string>', 'map<string,string>', 'map<string,int>']), d, s)}`,
          () => `${expr('int', d, s)} in ${expr('list<int>', d, s)}`,
          () => `sets.${pick(['contains', 'intersects', 'equivalent'])}(${expr('list<string>', d, s)}, ${expr('list<string>', d, s)})`,
          () => `${pick(['isQuantity', 'isURL', 'isIP', 'isCIDR', 'isSemver'])}(${expr('string', d, s)})`,
          () => `${expr('list<int>', d, s)} == ${expr('list<int>', d, s)}`,
          () => `${expr('obj', d, s)} == ${expr('obj', d, s)}`,
          () => `${expr('map<string,string>', d, s)} == ${expr('map<string,string>', d, s)}`,
          () => `format.${pick(['dns1123Label', 'dns1123Subdomain', 'uuid', 'qualifiedName', 'labelValue'])}().validate(${expr('string', d, s)}).hasValue()`,
          () => `ip(${expr('string', d, s)}).${pick(['isLoopback()', 'isGlobalUnicast()', 'isUnspecified()'])}`,
          () => `cidr(${expr('string', d, s)}).containsIP(${expr('string', d, s)})`,
          () => `semver(${expr('string', d, s)}).isLessThan(semver('1.0.0'))`,
          () => `${expr('timestamp', d, s)} ${pick(['<', '>'])} ${expr('timestamp', d, s)}`,
          () => `${expr('duration', d, s)} ${pick(['<', '>'])} ${expr('duration', d, s)}`,
          () => `cel.bind(v, ${expr('int', d, s)}, v > 0)`,
          () => `type(${expr(pick(ALL), d, s)}) == ${pick(['int', 'string', 'list', 'map', 'bool', 'double', 'null_type'])}`,
          () => `${expr('dyn', d, s)} == ${expr(pick(ALL), d, s)}`,
        ])();
      case 'bytes':
        return `${expr('bytes', d, s)} + ${expr('bytes', d, s)}`;
      case 'duration':
        return `${expr('duration', d, s)} ${pick(['+', '-'])} ${expr('duration', d, s)}`;
      case 'timestamp':
        return `${expr('timestamp', d, s)} ${pick(['+', '-'])} ${expr('duration', d, s)}`;
      case 'list<int>':
        return pick([
          () => `${expr('list<int>', d, s)} + ${expr('list<int>', d, s)}`,
          () => {
            const [v, inner] = bind('int', s);
            return `${expr('list<int>', d, s)}.${pick(['map', 'filter'])}(${v}, ${pick([() => expr('int', d, inner), () => expr('bool', d, inner)])()})`;
          },
          () => `${expr('list<string>', d, s)}.map(x, size(x))`,
          () => `[${expr('int', d, s)}, ${expr('int', d, s)}]`,
        ])();
      case 'list<string>':
        return pick([
          () => `${expr('list<string>', d, s)} + ${expr('list<string>', d, s)}`,
          () => {
            const [v, inner] = bind('string', s);
            return `${expr('list<string>', d, s)}.${pick(['map', 'filter'])}(${v}, ${pick([() => expr('string', d, inner), () => expr('bool', d, inner)])()})`;
          },
          () => `sets.${pick(['intersects'])}(${expr('list<string>', d, s)}, ${expr('list<string>', d, s)}) ? ${expr('list<string>', d, s)} : []`,
          () => `${expr('string', d, s)}.split(${expr('string', d, s)})`,
          () => `${expr('string', d, s)}.findAll('[a-z]')`,
        ])();
      default:
        return pick(atoms[t]);
    }
  }

  function bind(t: T, s: Scope): [string, Scope] {
    const v = `v${varN++}`;
    return [v, { vars: [...s.vars, { name: v, type: t }] }];
  }

  function comprehension(d: number, s: Scope): string {
    const over = pick(['list<int>', 'list<string>', 'map<string,string>', 'map<string,int>', 'objs'] as const);
    const macro = pick(['all', 'exists', 'exists_one', 'all', 'exists']);
    if (over === 'objs') {
      const v = `v${varN++}`;
      const inner: Scope = { vars: [...s.vars, { name: `${v}.n`, type: 'int' }, { name: `${v}.name`, type: 'string' }] };
      return `self.objs.${macro}(${v}, ${expr('bool', d, inner)})`;
    }
    const elem: T = over === 'list<int>' ? 'int' : 'string';
    if (over.startsWith('map') && chance(0.3)) {
      // two-variable form
      const k = `v${varN++}`;
      const val = `v${varN++}`;
      const inner: Scope = { vars: [...s.vars, { name: k, type: 'string' }, { name: val, type: over === 'map<string,int>' ? 'int' : 'string' }] };
      return `${expr(over, d, s)}.${pick(['all', 'exists', 'existsOne'])}(${k}, ${val}, ${expr('bool', d, inner)})`;
    }
    const [v, inner] = bind(elem, s);
    return `${expr(over, d, s)}.${macro}(${v}, ${expr('bool', d, inner)})`;
  }

  return () => {
    varN = 0;
    const rule = expr('bool', 2 + Math.floor(rnd() * 3), { vars: [] });
    const r: { -readonly [K in keyof FuzzRule]: FuzzRule[K] } = { rule };
    if (chance(0.15)) r.messageExpression = expr('string', 2, { vars: [] });
    if (chance(0.1)) r.fieldPath = pick(['.name', '.nosuch', ".tags['a']", '.objs[0]', 'name', '.items[1]', '.dash-name', ".tags['a'].b", '']);
    if (chance(0.05)) r.reason = pick(['FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired', 'FieldValueDuplicate', 'Bogus']);
    if (chance(0.05)) r.optionalOldSelf = true;
    return r;
  };
}
