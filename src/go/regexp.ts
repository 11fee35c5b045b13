/** Go's regexp package (RE2 syntax and semantics through RE2JS). */
import { RE2JS } from 're2js';

type Compiled = { ok: true; re: RE2JS } | { ok: false; message: string };
const REGEXES = new Map<string, Compiled>();

export function compileRegex(pattern: string): Compiled {
  let c = REGEXES.get(pattern);
  if (c === undefined) {
    try {
      c = { ok: true, re: RE2JS.compile(pattern) };
    } catch (e) {
      c = { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    REGEXES.set(pattern, c);
  }
  return c;
}

/** regexp.MatchString: unanchored search; an invalid pattern never matches. */
export function reMatch(pattern: string, s: string): boolean {
  const c = compileRegex(pattern);
  return c.ok && c.re.matcher(s).find();
}
