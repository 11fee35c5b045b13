/**
 * CEL syntax error texts (src/schema/cel/syntax-errors.ts) against cel-go's parser itself, as the
 * API server's environment parses (test/apiserver/celsyntax, built from the harness's Go module:
 * the default minor's cel-go). The texts are built at test time from ../shared/corpus
 * (cel-syntax-texts.ts): every prefix of every corpus rule, broken texts as people write them, and
 * seeded edits of the rules. Every text crdx words must be worded exactly as cel-go words it; crdx
 * must word none that cel-go accepts; and at least the measured number of the rejected ones must be
 * worded (the rest keep crdx's own wording, which claims no exactness).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { celGoSyntaxErrorText } from '../../src/schema/cel/syntax-errors.js';
import { CORPUS, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { apiserverDir, goAvailable } from './harness.js';
import { corpusRules, referenceTexts } from './cel-syntax-texts.js';

const CAN_RUN = goAvailable() && HAVE_CORPUS;
if (!goAvailable()) console.warn('cel-syntax conformance skipped: Go is needed to run cel-go (test/apiserver/celsyntax)');
if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);

/** Measured when the texts were first compared (cel-go 0.29.2, the corpus of 2026-11-28); exact raised 2026-12-03 (recovery of stray tokens before closing tokens). */
const FLOOR = { rejected: 17_391, exact: 16_929 };

describe.skipIf(!CAN_RUN)('CEL syntax error texts agree with cel-go', () => {
  it('every worded text is cel-go\'s; none for an accepted text; the floor of exact ones holds', () => {
    const rules = corpusRules(join(CORPUS, 'crds'));
    const texts = referenceTexts(rules);
    const input = `${texts.map((s) => JSON.stringify(s)).join('\n')}\n`;
    const out = execFileSync('go', ['run', './celsyntax'], { cwd: apiserverDir, input, maxBuffer: 1 << 30, env: { ...process.env, GOFLAGS: '-mod=mod' }, stdio: ['pipe', 'pipe', 'inherit'] }).toString();
    const cases = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { expr: string; err: string | null });
    expect(cases.length).toBe(texts.length);
    let rejected = 0;
    let exact = 0;
    const wrong: { expr: string; crdx: string; celGo: string | null }[] = [];
    for (const { expr, err } of cases) {
      const got = celGoSyntaxErrorText(expr);
      if (err === null) {
        if (got !== undefined) wrong.push({ expr, crdx: got, celGo: null });
        continue;
      }
      rejected++;
      if (got === err) exact++;
      else if (got !== undefined) wrong.push({ expr, crdx: got, celGo: err });
    }
    console.log(`conformance tally (cel-syntax): ${exact}/${rejected} texts cel-go rejects worded exactly, ${wrong.length} wrong; ${cases.length} texts from ${rules.length} corpus rules`);
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(rejected).toBeGreaterThan(0);
    // the corpus or cel-go changed when these move: re-measure and set the floor again
    expect(rejected).toBe(FLOOR.rejected);
    expect(exact).toBeGreaterThanOrEqual(FLOOR.exact);
  }, 900_000);
});
