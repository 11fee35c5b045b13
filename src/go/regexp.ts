/** Go's regexp package (RE2 syntax and semantics through RE2JS). */
import { RE2JS } from 're2js';

type Compiled = { ok: true; re: RE2JS } | { ok: false; message: string };
const REGEXES = new Map<string, Compiled>();

/**
 * The pattern with every capture group name used before renamed (`(?P<n>a)(?P<n>b)` becomes
 * `(?P<n>a)(?P<n_crdxdup0_>b)`), outside character classes and escapes, and the renames. Go's
 * regexp/syntax accepts a name used twice (Go 1.22 to 1.26 checked); RE2JS, as RE2, refuses it.
 * The names change nothing crdx matches with.
 */
function uniqueGroupNames(p: string): { pattern: string; renames: [string, string][] } {
  let out = '';
  let inClass = false;
  const seen = new Set<string>();
  const renames: [string, string][] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\') {
      out += p.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // a ']' right after '[' or '[^' is a literal
      if (p[i + 1] === '^') out += p[++i];
      if (p[i + 1] === ']') out += p[++i];
      continue;
    }
    const named = c === '(' ? /^\(\?(P?)<(\w+)>/.exec(p.slice(i)) : null;
    if (named) {
      const name = named[2]!;
      let as = name;
      if (seen.has(name)) {
        as = `${name}_crdxdup${renames.length}_`;
        renames.push([as, name]);
      }
      seen.add(name);
      out += `(?${named[1]}<${as}>`;
      i += named[0].length - 1;
      continue;
    }
    out += c;
  }
  return { pattern: out, renames };
}

/**
 * Go's text of a regexp/syntax error: `error parsing regexp: <code>: \`<expr>\``. RE2JS words its
 * errors the same way, but leaves out the empty expression of "trailing backslash at end of
 * expression", which Go prints as ``: \`\` ``.
 */
function goErrorText(message: string): string {
  return message.startsWith('error parsing regexp: ') && !message.includes('`') ? `${message}: \`\`` : message;
}

/** regexp.Compile: the compiled pattern, or Go's error text (test/go/vectors: regexp). */
export function compileRegex(pattern: string): Compiled {
  let c = REGEXES.get(pattern);
  if (c === undefined) {
    try {
      c = { ok: true, re: RE2JS.compile(pattern) };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      c = { ok: false, message: goErrorText(message) };
      if (message.startsWith('error parsing regexp: duplicate capture group name')) {
        const u = uniqueGroupNames(pattern);
        try {
          c = { ok: true, re: RE2JS.compile(u.pattern) };
        } catch (e2) {
          // another error: the one Go reports, with the names as written
          let text = e2 instanceof Error ? e2.message : String(e2);
          for (const [as, name] of u.renames) text = text.replaceAll(as, name);
          c = { ok: false, message: goErrorText(text) };
        }
      }
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
