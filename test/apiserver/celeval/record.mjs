#!/usr/bin/env node
// Records test/unit/cel-go-eval.json: generated CEL expressions (templates over the strings
// extension, format verbs, conversions, timestamps with zones, durations, quantity, url, ip, cidr,
// semver, lists, sets, comprehensions, optionals, bytes, arithmetic and comparisons) with generated
// values for s, t, u, i, j and d, and cel-go's answer for each (./celeval, the API server's CEL).
// Deterministic: the same seed gives the same cases. Run from test/apiserver:
//
//	node celeval/record.mjs            (N=3000 cases, seed 20261129)
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.N ?? 3000);
let seed = Number(process.env.SEED ?? 20261129);
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (a) => a[Math.floor(rnd() * a.length)];

const S = ['', ' ', 'a', 'abc', 'ABC', 'héllo', 'ß', 'İi', '😀x😀', 'a\tb', ' padded ', 'a,b,,c', '12', '-3', '+7', '0x1f', '1e3', '1.5', 'Infinity', 'true', 'T',
  '2024-01-01T00:00:00Z', '2024-02-29T23:59:59.999999999+05:30', '1969-12-31T23:59:59.5Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z',
  '1h30m', '-1.5s', '100ms', '1us', '2562047h', '0s', '1Gi', '500m', '1.5k', '100Mi', '12e-2', '-1',
  'https://user@example.com:8080/p/x?q=1&r=2#f', 'http://[::1]:80/x', '192.168.0.1', '::1', '::ffff:1.2.3.4', '10.0.0.0/8', '10.1.2.3/8', 'fe80::1%eth0',
  '1.2.3', 'v1.2.3', '1.2.3-alpha+b', '01.2.3', 'a.b.c', '%', 'ǅ', 'ﬀ', 'Σσς', 'America/New_York', 'UTC', '+05:30', '-08:00', 'Asia/Kolkata', 'b', ',', 'ab', 'é',
  '\\d+', '^a', '[', '(?i)abc', 'a{2,}', '.*', '\\pL', '(a)(b)?', 'x*'];
const I = [-2, -1, 0, 1, 2, 3, 5, 100, -100, 1099511627776, -1099511627776];
const D = [0, -0.0001, 0.5, 1.5, 2.5, -2.5, 1e21, 1e-7, 123456789.125, 3.0, -1.0, 1e300, 0.1, 1e15, 1e16, 123456.789];
const T = [
  // strings extension, regex, format
  's.size()', 's.charAt(i)', 's.indexOf(t)', 's.indexOf(t, i)', 's.lastIndexOf(t)', 's.lastIndexOf(t, i)', 's.lowerAscii()', 's.upperAscii()',
  's.replace(t, u)', 's.replace(t, u, i)', "s.split(t).join('|')", "s.split(t, i).join('|')", 's.substring(i)', 's.substring(i, j)', 's.trim()', 'strings.quote(s)',
  's.reverse()', '[s, t].join(u)', 's.contains(t)', 's.startsWith(t)', 's.endsWith(t)', 's.matches(t)', 's.find(t)', "s.findAll(t).join('|')", 's.findAll(t, i).size()',
  "'%s'.format([s])", "'%d'.format([i])", "'%f'.format([d])", "'%.2f'.format([d])", "'%e'.format([d])", "'%.3e'.format([d])", "'%x'.format([i])", "'%X'.format([s])",
  "'%o'.format([i])", "'%b'.format([i])", "'%s'.format([d])", "'%s'.format([i])", "'%x'.format([d])", "'%d'.format([d])", "'%.0f'.format([d])", "'%s %s'.format([s, [i, d]])",
  "'%d'.format([uint(i)])", "'%s'.format([[d, i, s]])", "'%s'.format([duration(s)])", "'%s'.format([timestamp(s)])",
  // conversions
  'int(s)', 'uint(s)', 'double(s)', 'bool(s)', 'string(duration(s))', 'string(timestamp(s))', 'int(timestamp(s))', 'string(timestamp(int(i)))', 'string(d)', 'string(i)',
  'int(d)', 'uint(d)', 'uint(i)', 'double(i)', 'string(bytes(s))', 'bytes(s).size()', 'base64.encode(bytes(s))', 'string(base64.decode(s))', 'bytes(s) < bytes(t)',
  // timestamps and durations
  'timestamp(s).getHours()', 'timestamp(s).getHours(t)', 'timestamp(s).getDayOfWeek(t)', 'timestamp(s).getDayOfYear()', 'timestamp(s).getMilliseconds()', 'timestamp(s).getFullYear(t)',
  'timestamp(s).getMonth(t)', 'timestamp(s).getDate(t)', 'timestamp(s).getMinutes(t)', 'string(timestamp(s) + duration(t))', 'string(timestamp(s) - duration(t))', 'string(timestamp(s) - timestamp(t))',
  'string(duration(s) + duration(t))', 'string(duration(s) - duration(t))', 'duration(s).getMinutes()', 'duration(s).getMilliseconds()', 'duration(s) < duration(t)', 'timestamp(s) == timestamp(t)',
  // arithmetic and comparisons
  'i / j', 'i % j', 'i * j', 'i + j', 'i - j', '-i', 'd / double(j)', 'd * d', 'd + double(i)', 'd / 0.0', 'string(d * 3.0)', 'uint(i) + uint(j)', 'uint(i) - uint(j)', 'uint(i) % uint(j)',
  'i == d', 'i < d', 'uint(i) < d', 'dyn(uint(i)) == dyn(i)', '[i, j] == [j, i]', '{s: 1}.size()',
  // Kubernetes libraries
  'quantity(s).asInteger()', 'quantity(s).asApproximateFloat()', 'isQuantity(s)', 'quantity(s).isInteger()', 'quantity(s).sign()', 'quantity(s).add(i).asApproximateFloat()',
  'quantity(s).compareTo(quantity(t))', 'quantity(s).sub(quantity(t)).isInteger()', 'quantity(s).isGreaterThan(quantity(t))',
  'url(s).getHost()', 'url(s).getHostname()', 'url(s).getPort()', 'url(s).getScheme()', 'url(s).getEscapedPath()', 'url(s).getQuery().size()', 'isURL(s)',
  'ip(s).family()', 'isIP(s)', 'ip(s).isLoopback()', 'string(ip(s))', 'cidr(s).prefixLength()', 'string(cidr(s).masked())', 'cidr(s).containsIP(t)', 'cidr(s).containsCIDR(t)', 'isCIDR(s)', 'string(cidr(s).ip())', 'ip.isCanonical(s)',
  'semver(s).major()', 'isSemver(s)', 'isSemver(s, true)', 'semver(s).compareTo(semver(t))', 'semver(s, true).minor()',
  // lists, sets, comprehensions, optionals
  '[i, j, 3].sort()[0]', 'lists.range(i).size()', '[s, t].distinct().size()', '[[i], [j]].flatten().size()', '[i, j, i].slice(i, j).size()', '[i, j].sum()', '[i, j].min()', '[d, 1.5].max()',
  '[s, t].indexOf(u)', '[s, t].lastIndexOf(s)', '[i, j].isSorted()', 'sets.contains([i], [j])', 'sets.intersects([i, 1], [j])', '[s, t].sortBy(x, x.size())[0]',
  '[i, j].all(x, x > 0)', '[i, j].exists_one(x, x == 0)', '[i, j].map(x, x * 2)[0]', '[i, j].filter(x, x > 0).size()', '[i, j].all(k, v, k < v)', '[i, j].transformList(k, v, v + k)[1]',
  'optional.of(i).orValue(j)', 'optional.none().orValue(s)', '{s: i}[?t].orValue(j)', '[i, j][?i].orValue(-1)', 'optional.ofNonZeroValue(s).hasValue()',
];

const cases = [];
for (let k = 0; k < N; k++) cases.push({ expr: pick(T), s: pick(S), t: pick(S), u: pick(S), i: pick(I), j: pick(I), d: pick(D) });
const bin = join(here, '..', 'bin', 'celeval');
execFileSync('go', ['build', '-o', bin, './celeval'], { cwd: join(here, '..'), stdio: 'inherit' });
const out = execFileSync(bin, { input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n', maxBuffer: 1 << 28 }).toString().trim().split('\n').map((l) => JSON.parse(l));
const go = execFileSync('go', ['version'], { cwd: here }).toString().trim();
const file = join(here, '..', '..', 'unit', 'cel-go-eval.json');
writeFileSync(file, `${JSON.stringify({ recorded: `${go}, k8s.io/apiserver of test/apiserver/go.mod`, cases: cases.map((c, k) => ({ ...c, go: out[k] })) })}\n`);
console.log(`${file}: ${cases.length} cases`);
