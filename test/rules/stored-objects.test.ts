import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('stored-objects');

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import type { Severity } from '../../src/core/types.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';
import { FIXTURES } from '../helpers/rule-tester.js';

describe('stored-objects severities', () => {
  const dir = join(FIXTURES, 'stored-objects');
  const file = (p: string) => ({ path: join(dir, p), text: readFileSync(join(dir, p), 'utf8') });
  const run = (overrides: [string, Severity | 'off'][], objects = true) =>
    lintSources([file('invalid/tightened.yaml')], {
      kubeVersion: DEFAULT_KUBE_VERSION,
      cel,
      old: [file('old/gadgets.yaml')],
      ...(objects ? { objects: [file('objects/gadgets.yaml')] } : {}),
      ruleSeverity: new Map(overrides),
    }).findings.filter((f) => f.ruleId === 'stored-objects');
  const tally = (fs: ReturnType<typeof run>) => fs.map((f) => `${f.messageId}:${f.severity}`).sort();

  it('errors for rejections, warnings for migrations', () => {
    expect(tally(run([]))).toEqual(['create:error', 'create:error', 'create:error', 'migration:warning']);
  });
  it('--rule ID=severity sets every check; --rule ID/CHECK one check', () => {
    expect(tally(run([['stored-objects', 'info']]))).toEqual(['create:info', 'create:info', 'create:info', 'migration:info']);
    expect(tally(run([['stored-objects/migration', 'off']]))).toEqual(['create:error', 'create:error', 'create:error']);
  });
  it('without --objects nothing is reported (no objects, no migration advice)', () => {
    expect(run([], false)).toEqual([]);
  });
});
