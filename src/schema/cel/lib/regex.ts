/**
 * `matches` (cel-go's string.Match: Go regexp, unanchored) and the Kubernetes regex library
 * (apiserver pkg/cel/library/regex.go: `find`, `findAll`), with RE2 semantics through re2js.
 */
import { compileRegex } from '../../../go/regexp.js';
import { CelGoError } from './ops.js';
import type { LibEnv } from './types.js';

/**
 * A pattern compiled, or the error cel-go returns for it: Go's regexp error as it is for `matches`
 * (string.Match), prefixed "Illegal regex: " for find and findAll (the Kubernetes library). RE2JS
 * words its syntax errors as Go's regexp/syntax does.
 */
function compiled(pattern: string, library: boolean) {
  const c = compileRegex(pattern);
  if (!c.ok) throw new CelGoError(library ? `Illegal regex: ${c.message}` : c.message);
  return c.re;
}

export function registerRegex(env: LibEnv): void {
  env.registerFunction('__crdx_matches(string, string): bool', (s: string, p: string) => compiled(p, false).matcher(s).find());
  env.registerFunction('__crdx_gmatches(string, string): bool', (s: string, p: string) => compiled(p, false).matcher(s).find());
  env.registerFunction('string.find(string): string', (s: string, p: string) => {
    const m = compiled(p, true).matcher(s);
    return m.find() ? m.group() : '';
  });
  const findAll = (s: string, p: string, n: bigint) => {
    const m = compiled(p, true).matcher(s);
    const out: string[] = [];
    // Go's FindAllString: n < 0 all, n == 0 none; an empty match right after a match is skipped
    let prevEnd = -1;
    while ((n < 0n || BigInt(out.length) < n) && m.find()) {
      if (m.start() === m.end() && m.start() === prevEnd) continue;
      out.push(m.group()!);
      prevEnd = m.end();
    }
    return out;
  };
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n));
  env.registerFunction('string.findAll(string, int): list<string>', findAll);
}
