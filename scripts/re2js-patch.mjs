// The bundle's edits of re2js (an esbuild plugin, scripts/build.mjs). Kept apart so that a test
// (test/go/regexp.test.ts) can build re2js with them and compare the edited library's answers with
// the library's own.
import { readFileSync } from 'node:fs';

/**
 * 1. re2js's Unicode.simpleFold looks every rune up in its case-orbit table, which it decodes on
 *    first use (~2-3 ms of a cold start), though only four ASCII runes are in it (K S k s: Kelvin
 *    sign, long s); the parser asks it about every two-rune character class and Compiler.rune about
 *    every one-rune literal, even in a case-sensitive pattern (Go's compiler tests the FoldCase flag
 *    first). The bundle answers other ASCII runes without the table, and tests the flag first in
 *    Compiler.rune: the same answers, so the same programs.
 * 2. `RE2JS.__crdxParse(pattern)`: re2js's parser alone (RE2JS.compile's first step, and the only one that
 *    throws), which src/go/regexp.ts uses where only the verdict of regexp.Compile is wanted (a
 *    CRD's `pattern`, a CEL literal): about a third of a compile.
 */
export const re2jsPatch = {
  name: 're2js-patch',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]re2js[\\/]build[\\/]index\.(?:js|cjs)$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const edits = [
        [
          'if (runes.length !== 1 || Unicode.simpleFold(runes[0]) === runes[0]) flags &= ~RE2Flags.FOLD_CASE;',
          'if (flags === 0 || runes.length !== 1 || Unicode.simpleFold(runes[0]) === runes[0]) flags &= ~RE2Flags.FOLD_CASE;',
        ],
        [
          'static simpleFold(r) {\n\t\tif (UnicodeTables.CASE_ORBIT.has(r))',
          'static simpleFold(r) {\n\t\tif (r <= Unicode.MAX_ASCII && r !== 75 && r !== 83 && r !== 107 && r !== 115) {\n\t\t\tconst l = Codepoint.toLowerCase(r);\n\t\t\treturn l !== r ? l : Codepoint.toUpperCase(r);\n\t\t}\n\t\tif (UnicodeTables.CASE_ORBIT.has(r))',
        ],
        [
          // RE2JS.compile's own check of its argument, then RE2.compileImpl's parse (RE2Flags.PERL)
          'static compile(regex, flags = 0) {',
          `static __crdxParse(regex) {\n\t\tUtils.checkPattern(regex);\n\t\tParser.parse(regex, RE2Flags.PERL);\n\t}\n\tstatic compile(regex, flags = 0) {`,
        ],
      ];
      let patched = text;
      const warnings = [];
      for (const [from, to] of edits) {
        if (patched.includes(from)) patched = patched.replace(from, to);
        else warnings.push({ text: `re2js: ${from.slice(0, 40)}... not found, left as is` });
      }
      return { contents: patched, loader: 'js', warnings };
    });
  },
};
