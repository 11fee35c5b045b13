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

/**
 * What regexp.Compile does with `pattern`, through `compile` (a pattern to its compiled form; it
 * throws RE2JS's errors): the result, or Go's error text. A duplicate capture group name, which Go
 * accepts, is compiled again with unique names.
 */
function attempt<T>(pattern: string, compile: (p: string) => T): { ok: true; re: T } | { ok: false; message: string } {
  try {
    return { ok: true, re: compile(pattern) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (!message.startsWith('error parsing regexp: duplicate capture group name')) return { ok: false, message: goErrorText(message) };
    const u = uniqueGroupNames(pattern);
    try {
      return { ok: true, re: compile(u.pattern) };
    } catch (e2) {
      // another error: the one Go reports, with the names as written
      let text = e2 instanceof Error ? e2.message : String(e2);
      for (const [as, name] of u.renames) text = text.replaceAll(as, name);
      return { ok: false, message: goErrorText(text) };
    }
  }
}

/** regexp.Compile: the compiled pattern, or Go's error text (test/go/vectors: regexp). */
export function compileRegex(pattern: string): Compiled {
  let c = REGEXES.get(pattern);
  if (c === undefined) {
    c = attempt(pattern, (p) => RE2JS.compile(p));
    REGEXES.set(pattern, c);
  }
  return c;
}

/**
 * re2js's parser alone, where the bundle adds it to RE2JS (scripts/re2js-patch.mjs); undefined when run
 * from sources. Only RE2JS's parser throws on the way to a compiled pattern (its simplifier,
 * prefilter and compiler do not), so parsing gives compileRegex's verdict at a third of the cost.
 */
const parseOnlyMethod = (RE2JS as unknown as { __crdxParse?: (p: string) => void }).__crdxParse;
const parseOnly = parseOnlyMethod === undefined ? undefined : (p: string): void => parseOnlyMethod.call(RE2JS, p);
const VERDICTS = new Map<string, string | undefined>();

/**
 * Go's error text for `pattern` through `parse` (a function that throws RE2JS's errors), undefined
 * when it is valid: regexError with the parser the caller gives (tests compare it with compileRegex).
 */
export function regexErrorWith(pattern: string, parse: (p: string) => void): string | undefined {
  const r = attempt(pattern, parse);
  return r.ok ? undefined : r.message;
}

/** Go's error text of regexp.Compile(pattern), undefined when it compiles: the verdict only, compiling nothing where it can. */
export function regexError(pattern: string): string | undefined {
  const c = REGEXES.get(pattern);
  if (c !== undefined) return c.ok ? undefined : c.message;
  if (parseOnly === undefined) {
    const r = compileRegex(pattern);
    return r.ok ? undefined : r.message;
  }
  if (VERDICTS.has(pattern)) return VERDICTS.get(pattern);
  const v = regexErrorWith(pattern, parseOnly);
  VERDICTS.set(pattern, v);
  return v;
}

/** regexp.MatchString: unanchored search; an invalid pattern never matches. */
export function reMatch(pattern: string, s: string): boolean {
  const c = compileRegex(pattern);
  return c.ok && c.re.matcher(s).find();
}
