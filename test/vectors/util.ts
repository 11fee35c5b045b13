/**
 * Shared helpers for the crd-validation.md §21 test vectors (TV01–TV120).
 * Builds v1 CRD YAML from BASE and asserts the server causes the vectors expect.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Finding } from '../../src/core/types.js';
import { BASE, lintYaml, serverCauses } from '../helpers/lint.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Obj = Record<string, any>;

/** S = the reported prefix for a single-version or all-versions-identical schema (§0.2). */
export const S = 'spec.validation.openAPIV3Schema';
/** Per-version schema prefix. */
export const V = (i: number): string => `spec.versions[${i}].schema.openAPIV3Schema`;

/** A fresh copy of the BASE CRD as a JS object. */
export function base(): Obj {
  return parse(BASE) as Obj;
}

/** Serialises a CRD object to YAML. YAML 1.1 quoting, because the linter parses YAML 1.1 (like kubectl). */
export function toYaml(...docs: Obj[]): string {
  return docs.map((d) => stringify(d, { version: '1.1', aliasDuplicateObjects: false })).join('---\n');
}

/** BASE with an arbitrary mutation applied, as YAML text. */
export function crd(mutate: (c: Obj) => void = () => {}): string {
  const c = base();
  mutate(c);
  return toYaml(c);
}

/** BASE with SCHEMA replacing spec.versions[0].schema.openAPIV3Schema (and an optional extra PATCH). */
export function withSchema(schema: unknown, patch: (c: Obj) => void = () => {}): string {
  return crd((c) => {
    c.spec.versions[0].schema = { openAPIV3Schema: schema };
    patch(c);
  });
}

/** BASE with VERSIONS replacing spec.versions (and an optional extra PATCH). */
export function withVersions(versions: unknown[], patch: (c: Obj) => void = () => {}): string {
  return crd((c) => {
    c.spec.versions = versions;
    patch(c);
  });
}

/** Lints and returns the findings. */
export function lint(yaml: string): readonly Finding[] {
  dumpForConformance(yaml);
  return lintYaml(yaml, '1.36');
}

/**
 * With CRDX_VECTOR_DUMP=DIR, each vector's input is written to DIR so that the conformance suite
 * can send the same CRDs to the real API server.
 */
function dumpForConformance(yaml: string): void {
  const dir = process.env['CRDX_VECTOR_DUMP'];
  if (!dir) return;
  const name = (expect.getState().currentTestName ?? 'vector').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
  mkdirSync(dir, { recursive: true });
  let file = join(dir, `${name}.yaml`);
  for (let i = 2; existsSync(file); i++) file = join(dir, `${name}_${i}.yaml`);
  writeFileSync(file, yaml);
}

export type ErrType = 'Required' | 'Invalid' | 'TypeInvalid' | 'NotSupported' | 'Forbidden' | 'Duplicate' | 'TooMany';

const REASON: Record<ErrType, string> = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  TypeInvalid: 'FieldValueTypeInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  Duplicate: 'FieldValueDuplicate',
  TooMany: 'FieldValueTooMany',
};

/**
 * One expected error: [type, field, detail?, valueText?].
 * detail: a substring the cause message must contain.
 * valueText: a substring for the rendered value part (e.g. `Invalid value: "object"`), when the spec pins it.
 */
export type Exp = readonly [ErrType, string, string?, string?];

function describeFindings(findings: readonly Finding[]): string {
  return findings
    .map((f) => (f.server ? `  ${f.server.reason} ${f.server.field}: ${f.server.message}` : `  [${f.severity}] ${f.ruleId} ${f.path}: ${f.message}`))
    .join('\n');
}

/** Matches each expected detail to a distinct server finding (so two errors at one path with two details need two findings). */
function expectDetails(findings: readonly Finding[], exp: readonly Exp[]): void {
  const used = new Set<Finding>();
  const withServer = findings.filter((f) => f.server);
  // Most specific first: entries with details claim their findings before bare ones.
  const ordered = [...exp].sort((a, b) => Number(b[2] !== undefined || b[3] !== undefined) - Number(a[2] !== undefined || a[3] !== undefined));
  for (const [type, field, detail, value] of ordered) {
    const reason = REASON[type];
    const match = withServer.find(
      (f) =>
        !used.has(f) &&
        f.server!.reason === reason &&
        f.server!.field === field &&
        (detail === undefined || f.server!.message.includes(detail)) &&
        (value === undefined || f.server!.message.includes(value)),
    );
    if (detail !== undefined || value !== undefined) {
      expect(
        match,
        `expected a ${reason} ${field} cause containing ${JSON.stringify(detail ?? '')}${value ? ` and ${JSON.stringify(value)}` : ''}; got:\n${describeFindings(withServer)}`,
      ).toBeDefined();
    }
    if (match) used.add(match);
  }
}

/** "Expect exactly": the server causes equal the expected ones (as a multiset), and every given detail is present. */
export function expectExactly(findings: readonly Finding[], exp: readonly Exp[]): void {
  const want = exp.map(([t, f]) => `${REASON[t]} ${f}`).sort();
  expect(serverCauses(findings), describeFindings(findings)).toEqual(want);
  expectDetails(findings, exp);
}

/** "Expect" (not exactly): every expected cause is present, others are allowed. */
export function expectIncludes(findings: readonly Finding[], exp: readonly Exp[]): void {
  const got = serverCauses(findings);
  const remaining = [...got];
  for (const [t, f] of exp) {
    const key = `${REASON[t]} ${f}`;
    const i = remaining.indexOf(key);
    expect(i, `missing ${key}; got:\n${describeFindings(findings)}`).toBeGreaterThanOrEqual(0);
    remaining.splice(i, 1);
  }
  expectDetails(findings, exp);
}

/** "No errors": no finding of severity error (warnings are allowed). */
export function expectNoErrors(findings: readonly Finding[]): void {
  const errors = findings.filter((f) => f.severity === 'error');
  expect(errors, describeFindings(errors)).toEqual([]);
}

/** A served v1 version with the given name, storage flag and schema (null: no schema at all). */
export function version(name: string, storage: boolean, schema: unknown = { type: 'object' }, extra: Obj = {}): Obj {
  return { name, served: true, storage, ...(schema === null ? {} : { schema: { openAPIV3Schema: schema } }), ...extra };
}
