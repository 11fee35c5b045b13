/** src/go/regexp.ts against Go's regexp.Compile and FindString (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { compileRegex, regexError, regexErrorWith } from '../../src/go/regexp.js';
import { corpusFiles } from '../helpers/corpus.js';
import { vectors } from './vectors.js';

describe('regexp.Compile', () => {
  it('has recorded cases', () => expect(vectors.regexp.length).toBeGreaterThan(20));
  it.each(vectors.regexp.map((c) => [c.in, c] as const))('%j', (pattern, c) => {
    const r = compileRegex(pattern);
    if (c.error !== undefined) {
      expect(r).toEqual({ ok: false, message: c.error });
      return;
    }
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const m = r.re.matcher(c.sample ?? '');
    const want = c.find ?? '';
    expect(m.find() ? m.group() : '-1').toBe(want);
  });
});

/**
 * The bundle checks patterns with re2js's parser alone (scripts/re2js-patch.mjs, src/go/regexp.ts
 * regexError): built here with the bundle's edits, its verdicts must be RE2JS.compile's, on every
 * recorded pattern, on syntax RE2JS refuses in each of its ways, and on every pattern of the corpus.
 */
describe('regexError with the bundle’s parser-only check', () => {
  const patched = (async () => {
    const { build } = await import('esbuild');
    // @ts-expect-error: a build script without type declarations
    const { re2jsPatch } = (await import('../../scripts/re2js-patch.mjs')) as { re2jsPatch: import('esbuild').Plugin };
    const out = await build({
      stdin: { contents: "export { RE2JS } from 're2js';", resolveDir: import.meta.dirname, loader: 'js' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      plugins: [re2jsPatch],
      logLevel: 'silent',
    });
    const text = out.outputFiles[0]!.text;
    const mod = (await import(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`)) as { RE2JS: { __crdxParse?: (p: string) => void } };
    const parse = mod.RE2JS.__crdxParse;
    return parse === undefined ? undefined : (p: string): void => parse.call(mod.RE2JS, p);
  })();
  const errorSyntax = ['(', ')', 'a**', 'a{1001}', '[z-a]', '\\8', '\\pX', '[a', 'x{2}{3}', '(?P<n>a)(?P<n>b)', '(?P<n>a)(?P<n>b)(', '(?<>a)', '(?i', '\\', 'a{,5}', '\\Q', '*', '(?P=n)', '((((((((((((((((((((((a))))))))))))))))))))))', 'a'.repeat(2) + '{1000}{1000}'];
  const corpusPatterns = [...new Set(corpusFiles('crds').flatMap((f) => [...f.text.matchAll(/^\s*pattern: (.+)$/gm)].map((m) => m[1]!.trim())))].map((p) => {
    // the YAML scalar as written: quoted ones unquoted the simple way (the verdict is compared, not the text)
    if (p.startsWith("'") && p.endsWith("'")) return p.slice(1, -1).replaceAll("''", "'");
    if (p.startsWith('"') && p.endsWith('"')) return JSON.parse(p) as string;
    return p;
  });
  it('the edited re2js exports its parser', async () => expect(typeof (await patched)).toBe('function'));
  it('agrees with RE2JS.compile', async () => {
    const parse = (await patched)!;
    const patterns = [...vectors.regexp.map((c) => c.in), ...errorSyntax, ...corpusPatterns];
    expect(corpusPatterns.length === 0 || corpusPatterns.length > 50).toBe(true);
    const differ = patterns.filter((p) => {
      const c = compileRegex(p);
      return regexErrorWith(p, parse) !== (c.ok ? undefined : c.message);
    });
    expect(differ).toEqual([]);
    // most of them are refused (the comparison is not of two undefineds); these four are valid RE2
    expect(errorSyntax.filter((p) => regexErrorWith(p, parse) === undefined)).toEqual(['(?P<n>a)(?P<n>b)', 'a{,5}', '\\Q', '((((((((((((((((((((((a))))))))))))))))))))))']);
  });
  it('regexError gives compileRegex’s verdict from sources (no parser exported)', () => {
    for (const p of [...errorSyntax, ...vectors.regexp.map((c) => c.in)]) {
      const c = compileRegex(p);
      expect(regexError(p)).toBe(c.ok ? undefined : c.message);
    }
  });
});
