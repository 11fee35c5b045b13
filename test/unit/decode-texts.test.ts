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

describe('up to 1.34 an error below items is named by items alone', () => {
  // the answer of a v1.30 server (sigs.k8s.io/json before mid-2025 replaces the inner field's name)
  const below = decodeCases.find((c) => c.name === 'type error below items')!;
  const at = (minor: number) =>
    lintSources([{ path: 'crd.yaml', text: below.text }], { kubeVersion: parseKubeVersion(`1.${minor}`)!, cel, fieldValidation: 'Strict' }).findings.find((f) => f.response)?.response?.message;
  it('1.30 and 1.34: the lax field', () => {
    const old = 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items of type int64';
    expect(at(30)).toBe(old);
    expect(at(34)).toBe(old);
  });
  it('1.35 on: the field where the error is', () => {
    expect(at(35)).toBe(below.server.status === 400 ? below.server.message : '');
  });
});
