import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseValidateFlag } from '../../src/core/field-validation.js';
import { DEFAULT_KUBE_VERSION, isSimulated, parseKubeVersion } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { rules } from '../../src/rules/index.js';
import { cel } from './cel.js';

export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'rules');

/**
 * Runs a rule over its fixtures. Valid fixtures must give no finding of the rule; invalid
 * fixtures declare what they must give in `# expect: <reason-or-messageId> <path-or-field> @line:col`
 * header lines (with `old@line:col` appended when the finding carries a place in OLD, for fixtures
 * with a `# old: <file>` header: they are linted as an update of that installed CRD). For server-faithful rules the first word is the server's StatusCause reason and
 * the second its field; otherwise the messageId and the finding's path. A `# validate: warn|ignore`
 * header runs the fixture with that field validation (kubectl's --validate; default strict), a
 * `# kube-version: 1.NN` header at that simulated version (default DEFAULT_KUBE_VERSION).
 */
export function ruleFixtureSuite(ruleId: string): void {
  const rule = rules.find((r) => r.id === ruleId);
  describe(ruleId, () => {
    it('is registered', () => expect(rule).toBeDefined());
    for (const kind of ['valid', 'invalid'] as const) {
      const dir = join(FIXTURES, ruleId, kind);
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort() : [];
      it(`has ${kind} fixtures`, () => expect(files.length).toBeGreaterThan(0));
      for (const f of files) {
        const path = join(dir, f);
        const text = readFileSync(path, 'utf8');
        it(`${kind}/${f}`, () => {
          const mode = /^# validate: (\w+)$/m.exec(text)?.[1];
          const fieldValidation = mode === undefined ? undefined : parseValidateFlag(mode);
          if (mode !== undefined) expect(fieldValidation, `# validate: ${mode}`).toBeDefined();
          // `# old: <file>` (relative to the fixture): lint as an update of that installed CRD (lint --old)
          const oldFile = /^# old: (\S+)$/m.exec(text)?.[1];
          const old = oldFile === undefined ? undefined : [{ path: join(dir, oldFile), text: readFileSync(join(dir, oldFile), 'utf8') }];
          const kv = /^# kube-version: (\S+)$/m.exec(text)?.[1];
          const kubeVersion = kv === undefined ? DEFAULT_KUBE_VERSION : parseKubeVersion(kv);
          expect(kubeVersion !== undefined && isSimulated(kubeVersion), `# kube-version: ${kv}`).toBe(true);
          // `# objects: <file>`: objects stored under the OLD CRD, written under this one (lint --old --objects)
          const objectsFile = /^# objects: (\S+)$/m.exec(text)?.[1];
          const objects = objectsFile === undefined ? undefined : [{ path: join(dir, objectsFile), text: readFileSync(join(dir, objectsFile), 'utf8') }];
          const findings = lintSources([{ path, text }], { kubeVersion: kubeVersion!, cel, ...(fieldValidation ? { fieldValidation } : {}), ...(old ? { old } : {}), ...(objects ? { objects } : {}) }).findings.filter(
            (x) => x.ruleId === ruleId,
          );
          const got = findings
            .map(
              (x) =>
                (x.server ? `${x.server.reason} ${x.server.field}` : `${x.messageId} ${x.path}`) +
                ` @${x.line}:${x.column}` +
                (old && x.old ? ` old@${x.old.line}:${x.old.column}` : '') +
                (x.file !== path ? ` in ${relative(dir, x.file)}` : ''),
            )
            .sort();
          const want = [...text.matchAll(/^# expect: (.+)$/gm)].map((m) => m[1]!.trim()).sort();
          if (kind === 'valid') expect(got).toEqual([]);
          else {
            expect(want.length).toBeGreaterThan(0);
            expect(got).toEqual(want);
            for (const x of findings) {
              expect(x.severity).toBe((rule!.meta.checkSeverity as Record<string, string> | undefined)?.[x.messageId] ?? rule!.meta.defaultSeverity);
              if (rule!.meta.serverFaithful && rule!.meta.type === 'problem' && x.server === undefined && x.ruleId === 'stored-objects') continue;
              // the server answers nothing: no cause, what it fails on instead
              if (x.aborted !== undefined) {
                expect(x.aborted).toMatch(x.messageId === 'panics' && x.ruleId === 'cel-compile-panic' ? /index out of range/ : /nil pointer dereference/);
                expect(x.server).toBeUndefined();
                continue;
              }
              if (rule!.meta.serverFaithful && rule!.meta.type === 'problem' && !['naming-conflicts', 'v1beta1-crd', 'crd-decode', 'custom-resource'].includes(x.ruleId)) {
                expect(x.server?.message).toBeTruthy();
                expect(x.message.startsWith(`${x.server!.field}: `)).toBe(true);
              }
            }
          }
        });
      }
    }
  });
}
