import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/io/make-dirs.js';

const dir = mkdtempSync(join(tmpdir(), 'crdx-make-dirs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('makeDirs', () => {
  it('creates every missing directory, with the mode asked for, and accepts one that exists', () => {
    const d = join(dir, 'a', 'b', 'c');
    makeDirs(d);
    expect(statSync(d).isDirectory()).toBe(true);
    if (process.platform !== 'win32') for (const p of [join(dir, 'a'), join(dir, 'a', 'b'), d]) expect(statSync(p).mode & 0o777).toBe(0o700 & ~process.umask());
    expect(() => makeDirs(d)).not.toThrow();
  });
  it('throws what mkdir says when a file is in the way', () => {
    const f = join(dir, 'file');
    writeFileSync(f, '');
    expect(() => makeDirs(join(f, 'sub'))).toThrow(/ENOTDIR/);
  });
  // the case Node 20's mkdirSync(…, { recursive: true }) never returns from
  it.runIf(process.platform === 'linux')('ends with ENOENT under /proc', () => {
    expect(() => makeDirs('/proc/crdx-no-such-dir/a/b')).toThrow(/ENOENT/);
  });
});
