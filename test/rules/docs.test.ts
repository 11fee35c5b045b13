import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('docs/rules and the README rules table are up to date (npm run docs)', () => {
  const root = join(import.meta.dirname, '..', '..');
  let out = '';
  try {
    execFileSync(process.execPath, [join(root, 'scripts', 'gen-docs.mjs'), '--check'], { cwd: root, stdio: 'pipe' });
  } catch (e) {
    out = String((e as { stderr?: Buffer }).stderr ?? e);
  }
  expect(out).toBe('');
});
