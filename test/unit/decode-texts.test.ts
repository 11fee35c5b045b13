/**
 * The decoder's 400 in the server's words, and what it drops without a word: lint against the
 * answers a v1.37 server gave (test/helpers/decode-cases.ts; replayed against the real server by
 * the field-validation conformance suite).
 */
import { describe, expect, it } from 'vitest';
import { parseKubeVersion } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';
import { decodeCases } from '../helpers/decode-cases.js';

const lint = (text: string) => lintSources([{ path: 'crd.yaml', text }], { kubeVersion: parseKubeVersion('1.37')!, cel, fieldValidation: 'Strict' }).findings;

describe('decode texts as the server words them', () => {
  it('has cases of every answer', () => {
    expect(new Set(decodeCases.map((c) => c.server.status))).toEqual(new Set([201, 400, 422]));
  });
  it.each(decodeCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const findings = lint(c.text);
    const errors = findings.filter((f) => f.severity === 'error');
    if (c.server.status === 400) {
      const decode = errors.filter((f) => f.ruleId === 'crd-decode');
      expect(decode.length).toBeGreaterThan(0);
      expect(new Set(decode.map((f) => f.response?.message))).toEqual(new Set([c.server.message]));
      expect(errors.every((f) => f.ruleId === 'crd-decode')).toBe(true);
    } else if (c.server.status === 422) {
      expect(errors.map((f) => f.message)).toEqual([c.server.cause]);
    } else expect(errors).toEqual([]);
    // what the server drops without a word is advice, never silent
    if (/dropped/.test(c.name)) expect(findings.some((f) => f.ruleId === 'schema-dropped-fields')).toBe(true);
  });
});
