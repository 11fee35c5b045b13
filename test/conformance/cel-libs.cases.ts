/** The cases of cel-libs.conformance.test.ts: per library, a CRD with rules using it and objects. */
export const GROUP = 'libs.crdx.test';

export type Obj = Record<string, unknown>;

export interface Lib {
  /** Library name (also the kind, capitalised, and the plural). */
  readonly name: string;
  /** spec's properties. */
  readonly props: Obj;
  /** Rules on spec: [rule, message?]. */
  readonly rules: readonly (readonly [string, string?])[];
  /** Objects' spec, by case name. */
  readonly cases: Readonly<Record<string, Obj>>;
}

const str = { type: 'string', maxLength: 64 };
const strList = { type: 'array', maxItems: 8, items: str };

export const LIBS: readonly Lib[] = [
  {
    name: 'regex',
    props: { s: str, p: str },
    rules: [
      ["self.s.matches('^[a-z]+$')", 'lowercase'],
      ["!self.s.matches('(?i)^X')", 'no x'],
      ["self.s.find('[0-9]+') == '' || self.s.find('[0-9]+').size() < 3", 'short numbers'],
      ["self.s.findAll('[a-z]').size() <= 5", 'at most five letters'],
      ["self.s.findAll('[a-z]', 2).size() <= 2"],
      ["!has(self.p) || self.s.matches(self.p)", 'matches p'],
      ["!self.s.matches('\\\\pL\\\\d')", 'no letter-digit'],
    ],
    cases: {
      ok: { s: 'abc' },
      upper: { s: 'Abc' },
      xfirst: { s: 'xyz' },
      digits: { s: 'a1234' },
      long: { s: 'abcdefg' },
      unicode: { s: 'é1' },
      pattern: { s: 'abc', p: '^b' },
      patternOk: { s: 'abc', p: 'b' },
    },
  },
  {
    name: 'lists',
    props: { n: { type: 'array', maxItems: 8, items: { type: 'integer' } }, d: { type: 'array', maxItems: 8, items: { type: 'number' } }, s: strList },
    rules: [
      ['!has(self.n) || self.n.isSorted()', 'sorted'],
      ['!has(self.n) || self.n.size() == 0 || self.n.sum() < 100', 'sum'],
      ['!has(self.n) || self.n.size() == 0 || self.n.min() >= 0', 'min'],
      ['!has(self.n) || self.n.size() == 0 || self.n.max() <= 50', 'max'],
      ['!has(self.s) || self.s.indexOf("x") <= 0', 'indexOf'],
      ['!has(self.s) || self.s.lastIndexOf("x") == self.s.indexOf("x")', 'one x'],
      ['!has(self.d) || self.d.size() == 0 || self.d.max() < 1.5', 'double max'],
      ['!has(self.s) || self.s.isSorted()', 'strings sorted'],
      ['!has(self.n) || self.n.min() > -10'],
    ],
    cases: {
      ok: { n: [1, 2, 3], s: ['a', 'b'], d: [0.5, 1.0] },
      unsorted: { n: [3, 1] },
      big: { n: [40, 45, 48] },
      negative: { n: [-20, -1] },
      empty: { n: [] },
      xs: { s: ['a', 'x', 'x'] },
      doubles: { d: [1.25, 2.5] },
      strings: { s: ['b', 'a'] },
    },
  },
  {
    name: 'setlists',
    props: {
      set: { type: 'array', maxItems: 8, items: str, 'x-kubernetes-list-type': 'set' },
      m: { type: 'array', maxItems: 8, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: str, v: { type: 'integer' } } } },
      other: { type: 'array', maxItems: 8, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: str, v: { type: 'integer' } } } },
    },
    rules: [
      ["!has(self.set) || self.set == ['a', 'b'] || self.set.size() != 2", 'set equals a,b'],
      ["!has(self.set) || ['a', 'b'] == self.set || self.set.size() != 2", 'list equals set'],
      ["!has(self.set) || (self.set + ['a', 'c']).size() <= 3", 'union'],
      ['!has(self.m) || self.m.size() != 2 || self.m == [self.m[1], self.m[0]]', 'map list reordered'],
      ['!has(self.m) || self.m.size() == 0 || (self.m + [self.m[0]]).size() == self.m.size()', 'merge keeps size'],
      ['!has(self.other) || self.other.size() < 2 || self.other != [self.other[0], self.other[0]]', 'not twice the first'],
      ['!has(self.set) || (self.set + self.set).size() == self.set.size()', 'set union with itself'],
      ["!has(self.set) || 'z' in self.set == false", 'no z'],
    ],
    cases: {
      ordered: { set: ['a', 'b'] },
      reversed: { set: ['b', 'a'] },
      other: { set: ['a', 'x'] },
      union: { set: ['b', 'd'] },
      withZ: { set: ['z'] },
      maps: { m: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], other: [{ k: 'b', v: 2 }, { k: 'a', v: 1 }] },
      mapOne: { m: [{ k: 'a', v: 1 }], other: [{ k: 'a', v: 1 }, { k: 'c', v: 3 }, { k: 'd' }] },
      duplicates: { set: ['a', 'a'] },
    },
  },
  {
    name: 'values',
    props: {
      ios: { 'x-kubernetes-int-or-string': true },
      ios2: { 'x-kubernetes-int-or-string': true },
      dur: { type: 'string', format: 'duration', maxLength: 32 },
      ts: { type: 'string', format: 'date-time', maxLength: 32 },
      day: { type: 'string', format: 'date', maxLength: 32 },
      b64: { type: 'string', format: 'byte', maxLength: 32 },
      'dash-name': str,
      namespace: str,
      raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      sdur: str,
      sts: str,
    },
    rules: [
      ["!has(self.ios) || (type(self.ios) == int ? self.ios < 10 : self.ios != 'bad')", 'int or string'],
      ["!has(self.dur) || self.dur < duration('1h')", 'short'],
      ['!has(self.ios2) || self.ios2 > 0'],
      ["!has(self.ios2) || self.ios2 + 1 != 5", 'not four'],
      ["!has(self.sdur) || duration(self.sdur) < duration('1m')", 'string duration'],
      ["!has(self.ts) || self.ts.getHours() < 20 && self.ts.getDayOfWeek() != 0", 'weekday hours'],
      ["!has(self.dur) || self.dur.getMinutes() < 100", 'minutes'],
      ["!has(self.ts) || self.ts > timestamp('2020-01-01T00:00:00Z')", 'recent'],
      ["!has(self.sts) || timestamp(self.sts) < timestamp('2030-01-01T00:00:00Z')", 'string timestamp'],
      ["!has(self.day) || self.day.getFullYear() >= 2000", 'this century'],
      ["!has(self.b64) || size(self.b64) < 4", 'small'],
      ["!has(self.dash__dash__name) || self.dash__dash__name != 'no'", 'dash'],
      ["!has(self.__namespace__) || self.__namespace__ != 'kube-system'", 'namespace'],
    ],
    cases: {
      ok: { ios: 3, dur: '5m', ts: '2024-05-01T10:00:00Z', day: '2024-01-02', b64: 'YWI=', 'dash-name': 'yes', namespace: 'a', raw: { x: 1 } },
      iosInt: { ios: 30 },
      iosStr: { ios: 'bad' },
      ios2Str: { ios2: 'x' },
      ios2Int: { ios2: 4 },
      ios2Neg: { ios2: -1 },
      longDur: { dur: '2h30m' },
      oldTs: { ts: '2019-12-31T23:59:59.5Z' },
      oldDay: { day: '1999-12-31' },
      bigBytes: { b64: 'YWJjZA==' },
      dash: { 'dash-name': 'no' },
      ns: { namespace: 'kube-system' },
      sdur: { sdur: '1m30s' },
      sdurOk: { sdur: '59.5s' },
      sdurBad: { sdur: '1d' },
      sdurEmpty: { sdur: '' },
      sunday: { ts: '2024-05-05T10:00:00Z' },
      sts: { sts: '2031-01-01T00:00:00+01:00' },
      stsBad: { sts: '2031-01-01' },
      stsOverflow: { sts: '0000-01-01T00:00:00Z' },
      evening: { ts: '2024-05-06T21:00:00.250Z' },
    },
  },
  {
    name: 'quantity',
    props: { mem: str, cpu: str, n: { type: 'integer' } },
    rules: [
      ["!has(self.mem) || isQuantity(self.mem)", 'mem is a quantity'],
      ["!has(self.mem) || !isQuantity(self.mem) || quantity(self.mem).isLessThan(quantity('1Gi'))", 'below 1Gi'],
      ["!has(self.mem) || !isQuantity(self.mem) || quantity(self.mem).compareTo(quantity('1k')) >= 0", 'at least 1k'],
      ["!has(self.cpu) || sign(quantity(self.cpu)) >= 0", 'not negative'],
      ["!has(self.cpu) || quantity(self.cpu).isInteger() || quantity(self.cpu).isGreaterThan(quantity('100m'))", 'fraction above 100m'],
      ["!has(self.cpu) || !quantity(self.cpu).isInteger() || quantity(self.cpu).asInteger() < 8", 'fewer than 8'],
      ["!has(self.cpu) || quantity(self.cpu).add(quantity('500m')).sub(1).asApproximateFloat() < 10.0", 'sum below 10'],
      ["!has(self.cpu) || !has(self.n) || quantity(self.cpu).compareTo(quantity('2').add(self.n)) != 0", 'not 2+n'],
      ["!has(self.cpu) || quantity(self.cpu) == quantity(self.cpu + '000m') || quantity(self.cpu).asInteger() > 0", 'equal in milli'],
    ],
    cases: {
      ok: { mem: '512Mi', cpu: '2' },
      big: { mem: '2Gi' },
      small: { mem: '100' },
      notQuantity: { mem: '1GB' },
      negative: { cpu: '-1' },
      fraction: { cpu: '0.05' },
      fractionOk: { cpu: '0.5' },
      many: { cpu: '12' },
      sum: { cpu: '9.9' },
      twoPlusN: { cpu: '5', n: 3 },
      exponent: { cpu: '1e3' },
      nano: { cpu: '1.0000000001' },
      badCpu: { cpu: 'x' },
      milli: { cpu: '1500m' },
    },
  },
  {
    name: 'strings',
    props: { s: str, l: strList },
    rules: [
      ["!has(self.s) || self.s.size() == 0 || self.s.charAt(0) != 'x'", 'no x first'],
      ["!has(self.s) || self.s.charAt(self.s.size()) == ''", 'charAt end'],
      ["!has(self.s) || self.s.indexOf('é') < 2", 'é early'],
      ["!has(self.s) || self.s.lastIndexOf('a') == self.s.indexOf('a')", 'one a'],
      ["!has(self.s) || self.s.indexOf('b', 2) == -1", 'no b from 2'],
      ["!has(self.s) || self.s.upperAscii() != 'ÉA' && self.s.lowerAscii() != 'éa'", 'not éa'],
      ["!has(self.s) || self.s.replace('a', 'b') != 'bbb' && self.s.replace('', '-', 2) != '-b-bb'", 'replace'],
      ["!has(self.s) || self.s.split(',').size() <= 3 && self.s.split('', 2).size() <= 2", 'split'],
      ["!has(self.s) || self.s.size() < 3 || self.s.substring(1, 3) != 'éb'", 'substring'],
      ["!has(self.s) || self.s.trim() == self.s", 'trimmed'],
      ["!has(self.l) || self.l.join('-') != 'a-b'", 'joined'],
      ["!has(self.l) || self.l.indexOf('z') == -1", 'no z'],
      ["!has(self.s) || self.s.size() < 5 || self.s.substring(5, 3) == ''", 'bad range'],
    ],
    cases: {
      ok: { s: 'abc', l: ['a'] },
      x: { s: 'xyz' },
      lateE: { s: 'abcé' },
      twoA: { s: 'aba' },
      bLate: { s: 'aébb' },
      ea: { s: 'éA' },
      aaa: { s: 'aaa' },
      bb: { s: 'bb' },
      commas: { s: 'a,b,c,d' },
      sub: { s: 'aébc' },
      spaces: { s: ' a\u00a0' },
      joined: { l: ['a', 'b'] },
      z: { l: ['y', 'z'] },
      range: { s: 'abcdef' },
    },
  },
  {
    name: 'urls',
    props: { u: str },
    rules: [
      ['!has(self.u) || isURL(self.u)', 'a URL'],
      ["!has(self.u) || !isURL(self.u) || url(self.u).getScheme() == 'https' || url(self.u).getScheme() == ''", 'https'],
      ["!has(self.u) || !isURL(self.u) || url(self.u).getHostname() != 'evil.example'", 'not evil'],
      ["!has(self.u) || !isURL(self.u) || url(self.u).getPort() == '' || url(self.u).getPort() == '443'", 'port 443'],
      ["!has(self.u) || !isURL(self.u) || !url(self.u).getEscapedPath().startsWith('/admin')", 'no admin'],
      ["!has(self.u) || !isURL(self.u) || !('debug' in url(self.u).getQuery())", 'no debug'],
      ["!has(self.u) || !isURL(self.u) || !('a' in url(self.u).getQuery()) || url(self.u).getQuery()['a'].size() == 1", 'one a'],
      ["!has(self.u) || !isURL(self.u) || !('q' in url(self.u).getQuery()) || url(self.u).getQuery()['q'][0] != 'a b'", 'q not a b'],
      ["!has(self.u) || !isURL(self.u) || url(self.u).getHost().size() < 30", 'short host'],
    ],
    cases: {
      ok: { u: 'https://example.com/x?a=1' },
      notUrl: { u: 'example.com/x' },
      http: { u: 'http://example.com' },
      evil: { u: 'https://evil.example:443/' },
      port: { u: 'https://[::1]:8443/' },
      admin: { u: 'https://example.com/admin/x' },
      debug: { u: 'https://example.com/?debug' },
      twice: { u: 'https://example.com/?a=1&a=2' },
      absPath: { u: '/just/a/path' },
      opaque: { u: 'mailto:someone' },
      longHost: { u: 'https://user@a-very-long-host-name.example.com/' },
      plus: { u: 'https://example.com/?q=a+b&debug=%41' },
    },
  },
  {
    name: 'sets',
    props: { a: strList, b: strList, set: { type: 'array', maxItems: 8, items: str, 'x-kubernetes-list-type': 'set' } },
    rules: [
      ['!has(self.a) || !has(self.b) || sets.contains(self.a, self.b)', 'a contains b'],
      ["!has(self.a) || sets.intersects(self.a, ['x', 'y'])", 'a has x or y'],
      ["!has(self.set) || !sets.equivalent(self.set, ['p', 'q'])", 'set is not p,q'],
      ["!has(self.set) || sets.contains(['p', 'q', 'r'], self.set)", 'set within p,q,r'],
    ],
    cases: {
      ok: { a: ['x', 'z'], b: ['z'] },
      missing: { a: ['x'], b: ['z', 'x'] },
      noXY: { a: ['z'] },
      pq: { set: ['q', 'p'] },
      r: { set: ['r'] },
      outside: { set: ['s'] },
    },
  },
  {
    name: 'optionals',
    props: { a: str, m: { type: 'object', maxProperties: 8, additionalProperties: str }, l: strList, o: { type: 'object', properties: { x: { type: 'integer' } } } },
    rules: [
      ["self.?a.orValue('') != 'bad'", 'a not bad'],
      ["self.?o.x.orValue(0) < 10", 'o.x small'],
      ["!self.?m['k'].hasValue() || self.m['k'] != 'v'", 'no k=v'],
      ["self.?l[0].orValue('') != 'first'", 'no first'],
      ["optional.of(1).value() == 1 && !optional.none().hasValue()", 'literals'],
      ["self.?a.or(optional.of('z')).value() != 'zz'", 'a not zz'],
    ],
    cases: {
      ok: { a: 'x', m: { j: 'v' }, l: ['a'], o: { x: 1 } },
      empty: {},
      bad: { a: 'bad' },
      big: { o: { x: 12 } },
      kv: { m: { k: 'v' } },
      first: { l: ['first'] },
      zz: { a: 'zz' },
    },
  },
  {
    name: 'ips',
    props: { a: str },
    rules: [
      ['!has(self.a) || isIP(self.a)', 'an IP'],
      ['!has(self.a) || !isIP(self.a) || ip.isCanonical(self.a)', 'canonical'],
      ['!has(self.a) || !isIP(self.a) || ip(self.a).family() == 4 || !ip(self.a).isLoopback()', 'no v6 loopback'],
      ['!has(self.a) || !isIP(self.a) || !ip(self.a).isUnspecified()', 'specified'],
      ['!has(self.a) || !isIP(self.a) || !ip(self.a).isLinkLocalUnicast() && !ip(self.a).isLinkLocalMulticast()', 'not link-local'],
      ['!has(self.a) || !isIP(self.a) || ip(self.a).isGlobalUnicast() || ip(self.a).isLoopback()', 'global or loopback'],
    ],
    cases: {
      v4: { a: '192.168.1.1' },
      v6: { a: '2001:db8::1' },
      notCanonical: { a: '2001:DB8::1' },
      longForm: { a: '2001:db8:0:0:0:0:0:1' },
      loop6: { a: '::1' },
      loop4: { a: '127.0.0.1' },
      zero: { a: '0.0.0.0' },
      linkLocal: { a: 'fe80::1' },
      mcast: { a: '224.0.0.5' },
      bcast: { a: '255.255.255.255' },
      mapped: { a: '::ffff:1.2.3.4' },
      zone: { a: 'fe80::1%eth0' },
      leadingZero: { a: '010.0.0.1' },
      ten: { a: '10.0.0.1' },
      embedded: { a: '64:ff9b::1.2.3.4' },
      runs: { a: '1:0:0:2:0:0:0:3' },
    },
  },
  {
    name: 'listsext',
    props: { n: { type: 'array', maxItems: 8, items: { type: 'integer' } }, s: strList },
    rules: [
      ['!has(self.n) || self.n.size() < 2 || self.n.slice(0, 2).sum() < 10', 'first two small'],
      ['!has(self.n) || self.n.distinct().size() == self.n.size()', 'distinct'],
      ['!has(self.n) || self.n.size() == 0 || self.n.reverse()[0] != 7', 'last not 7'],
      ['!has(self.s) || self.s.sort() == self.s', 'sorted'],
      ['!has(self.n) || [self.n, [1]].flatten().size() < 6', 'flatten'],
      ['lists.range(3) == [0, 1, 2] && lists.range(0).size() == 0', 'range'],
      ['!has(self.n) || self.n.size() < 4 || self.n.slice(1, 4).size() == 3', 'slice'],
    ],
    cases: {
      ok: { n: [1, 2, 3], s: ['a', 'b'] },
      big: { n: [5, 6] },
      dup: { n: [1, 1] },
      seven: { n: [1, 7] },
      unsorted: { s: ['b', 'a'] },
      long: { n: [1, 2, 3, 4, 5] },
      badSlice: { n: [1, 2, 3, 4] },
      low: { n: [0, 0, 1] },
    },
  },
];

export function crdOf(l: Lib): Obj {
  const kind = l.name[0]!.toUpperCase() + l.name.slice(1);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${l.name}.${GROUP}` },
    spec: {
      group: GROUP,
      names: { plural: l.name, singular: l.name, kind, listKind: `${kind}List` },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: l.props, 'x-kubernetes-validations': l.rules.map(([rule, message]) => (message === undefined ? { rule } : { rule, message })) },
              },
            },
          },
        },
      ],
    },
  };
}

export function objOf(l: Lib, name: string, spec: Obj): Obj {
  const kind = l.name[0]!.toUpperCase() + l.name.slice(1);
  return { apiVersion: `${GROUP}/v1`, kind, metadata: { name: name.toLowerCase(), namespace: 'default' }, spec };
}

