/**
 * Numbers as go-yaml v2 (through sigs.k8s.io/yaml) reads them where the yaml package's YAML 1.1
 * differs: base-prefixed and sexagesimal plain scalars, exact int64 literals, number map keys.
 */
import type { Scalar } from 'yaml';
import { goYamlFloat } from '../go/yaml-emit.js';
import { INT64_MAX, INT64_MIN } from '../go/value.js';

export const INF_NAN = /^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/;

/**
 * Plain scalars YAML 1.1 and go-yaml v2 resolve differently: sexagesimal numbers (`1:20`, 80 in
 * YAML 1.1) are strings to go-yaml, `0o17` is an int to it (Go's ParseInt with base prefixes).
 * Sets the value as go-yaml reads it; true when it changed.
 */
export function goYamlScalar(n: Scalar): boolean {
  const src = n.source;
  if (src === undefined || n.type !== 'PLAIN') return false;
  if (typeof n.value === 'number' && src.includes(':')) {
    n.value = src;
    return true;
  }
  if (typeof n.value === 'string' && /^[-+]?0[oO][0-7_]+$/.test(src)) {
    const v = int64Literal(src);
    if (v === undefined) return false;
    n.value = v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v;
    return true;
  }
  return false;
}

/**
 * A number map key as sigs.k8s.io/yaml makes it a JSON key from what go-yaml v2 decoded: an int as
 * its digits, a float with strconv.FormatFloat(f, 'g', -1, 32) (`1e+20`, `3.1415927`, `.inf`), a
 * number beyond float64 (`1e400`) as written; undefined for a uint64 (kubectl: unsupported map key).
 */
export function numberKey(v: number | bigint, source: string | undefined): string | undefined {
  if (source !== undefined) {
    const plain = source.replace(/_/g, '');
    if (typeof v === 'number' && !Number.isFinite(v) && !INF_NAN.test(source)) return source;
    if (INT_LITERAL.test(plain)) {
      const i = exactInt(plain);
      if (i >= INT64_MIN && i <= INT64_MAX) return i.toString();
      if (i > 0n && i < 2n ** 64n) return undefined;
      if (!/^[-+]?[0-9]+$/.test(plain)) return source; // hex, octal or binary beyond 64 bits: go-yaml keeps the text
    }
  }
  return goYamlFloat(Number(v), 32);
}

/** The value of an integer literal matching INT_LITERAL (underscores removed). */
function exactInt(plain: string): bigint {
  const neg = plain.startsWith('-');
  const digits = plain.replace(/^[-+]/, '');
  const body = /^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits;
  return neg ? -BigInt(body) : BigInt(body);
}

const INT_LITERAL = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]+|[1-9][0-9]*|0)$/;

/**
 * The int64 an integer literal stands for, as go-yaml v2 reads it (underscores dropped, then Go's
 * strconv.ParseInt with base prefixes); undefined for anything else (a float literal such as `1e19`,
 * a uint64 beyond int64: those are float64 to the server, as they are here).
 */
export function int64Literal(source: string): bigint | undefined {
  const plain = source.replace(/_/g, '');
  if (!INT_LITERAL.test(plain)) return undefined;
  const v = exactInt(plain);
  return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
}

/**
 * The int64 the server decodes from an integral float64 beyond 2^53, as kubectl sends it: Go's
 * encoding/json writes the shortest digits that read back as the same float64, without an exponent
 * below 1e21 (as JavaScript's String does), so 1e18 arrives as 1000000000000000000 and
 * 4.611686018427387904e18 as 4611686018427388000; undefined when those digits are beyond int64 (the
 * server keeps a float64: -9223372036854775809 is sent as -9223372036854776000).
 */
export function floatAsSent(f: number): bigint | undefined {
  if (!Number.isInteger(f) || Math.abs(f) >= 1e21) return undefined;
  const v = BigInt(String(f));
  return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
}
