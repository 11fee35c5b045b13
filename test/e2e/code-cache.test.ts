/**
 * bin/kubectl-crdx compiles the CLI bundle with V8's code cache: the one the build shipped beside the
 * bundle when this Node made it, else one of the user's cache directory, written by the first run
 * that had none. Needs `npm run build:dist` first (it makes the shipped cache with this Node).
 * `--max-semi-space-size` changes V8's flags, and V8 refuses a cache made under other flags: that
 * is how a run here stands for a Node the shipped cache does not fit. Such a run keeps its cache
 * under a name of its own (a hash of the Node options), beside the cache of runs without options.
 * The loader is bin/load-bundle.cjs; the single executable's use of it is tested in
 * test/release/krew.test.ts.
 */
import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'crdx-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OTHER_FLAGS = ['--max-semi-space-size=2'];
const ARGS = ['lint', 'fixtures/crds', '-o', 'json'];

async function run(cacheDir: string, nodeFlags: readonly string[] = [], env: Record<string, string> = {}): Promise<{ code: number | undefined; stdout: string; stderr: string }> {
  const r = await execa('node', [...nodeFlags, 'bin/kubectl-crdx', ...ARGS], { cwd: ROOT, reject: false, stdin: 'ignore', env: { NO_COLOR: '1', CRDX_CACHE_DIR: cacheDir, ...env } });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const bundleId = (): string => /^\/\/crdx-bundle ([0-9a-f]{16})\n/.exec(readFileSync(join(ROOT, 'dist', 'cli', 'kubectl-crdx.cjs'), 'utf8'))![1]!;
const cacheName = (): string => `${bundleId()}-${process.version}-${process.arch}.v8cache`;
/** The cache of a run under OTHER_FLAGS: its own name, with a hash of the flags. */
const flaggedName = (dir: string): string => {
  const names = readdirSync(dir).filter((f) => f.endsWith('.v8cache') && f !== cacheName());
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(new RegExp(`^${bundleId()}-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{8}\\.v8cache$`));
  return names[0]!;
};

describe('code cache', () => {
  it('the build ships a cache for this Node; it is accepted, so nothing is written', async () => {
    expect(statSync(join(ROOT, 'dist', 'cli', cacheName())).size).toBeGreaterThan(100_000);
    const d = join(dir, 'shipped');
    const r = await run(d);
    expect(r.code).toBe(1);
    expect(() => readdirSync(d)).toThrow();
  });

  it('a Node the shipped cache does not fit writes its own once, then uses it; the output never changes', async () => {
    const d = join(dir, 'own');
    const plain = await run(d, [], { CRDX_COMPILE_CACHE: '0' });
    expect(plain.code).toBe(1);
    const first = await run(d, OTHER_FLAGS);
    expect(first).toEqual(plain);
    const name = flaggedName(d);
    expect(readdirSync(d)).toEqual([name]);
    const file = join(d, name);
    const made = statSync(file);
    expect(made.mode & 0o777).toBe(0o600);
    const second = await run(d, OTHER_FLAGS);
    expect(second).toEqual(plain);
    // accepted: not written again (a write renames a new file into place)
    expect(statSync(file).ino).toBe(made.ino);
    expect((await run(d, OTHER_FLAGS, { CRDX_CACHE_DIR: join(dir, 'elsewhere') })).code).toBe(1);
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual([name]);
    // the same flags through NODE_OPTIONS: the same cache, accepted
    expect(await run(d, [], { NODE_OPTIONS: OTHER_FLAGS.join(' ') })).toEqual(plain);
    expect(readdirSync(d)).toEqual([name]);
    expect(statSync(file).ino).toBe(made.ino);
  });

  it('runs with and without Node options alternate without replacing each other\'s cache', async () => {
    const d = join(dir, 'alternate');
    const plain = await run(d, [], { CRDX_COMPILE_CACHE: '0' });
    // without options: the shipped cache is accepted, nothing is written
    expect(await run(d)).toEqual(plain);
    expect(() => readdirSync(d)).toThrow();
    expect(await run(d, OTHER_FLAGS)).toEqual(plain);
    const file = join(d, flaggedName(d));
    const made = statSync(file).ino;
    for (const flags of [[], OTHER_FLAGS, [], OTHER_FLAGS]) expect(await run(d, flags)).toEqual(plain);
    expect(readdirSync(d)).toHaveLength(1);
    expect(statSync(file).ino).toBe(made);
  });

  it('a cache V8 refuses (damaged) is replaced; caches of other bundles or Nodes are removed', async () => {
    const d = join(dir, 'damaged');
    const plain = await run(d, [], { CRDX_COMPILE_CACHE: '0' });
    await run(d, OTHER_FLAGS);
    const name = flaggedName(d);
    const file = join(d, name);
    const good = readFileSync(file);
    writeFileSync(file, Buffer.alloc(good.length, 7));
    writeFileSync(join(d, `0123456789abcdef-v18.0.0-${process.arch}.v8cache`), 'old');
    writeFileSync(join(d, 'notes.txt'), 'not ours');
    const before = statSync(file).ino;
    const r = await run(d, OTHER_FLAGS);
    expect(r).toEqual(plain);
    expect(readdirSync(d).sort()).toEqual([name, 'notes.txt']);
    expect(statSync(file).ino).not.toBe(before);
    expect(readFileSync(file).equals(Buffer.alloc(good.length, 7))).toBe(false);
    expect(await run(d, OTHER_FLAGS)).toEqual(plain);
  });

  it('a cache made by a run that compiled little (--version) is made again by the next lint, then kept; a cache of the single executable stays', async () => {
    const d = join(dir, 'thin');
    const plain = await run(d, [], { CRDX_COMPILE_CACHE: '0' });
    const version = await execa('node', [...OTHER_FLAGS, 'bin/kubectl-crdx', '--version'], { cwd: ROOT, reject: false, stdin: 'ignore', env: { CRDX_CACHE_DIR: d } });
    expect(version.exitCode).toBe(0);
    const name = flaggedName(d);
    const file = join(d, name);
    const source = statSync(join(ROOT, 'dist', 'cli', 'kubectl-crdx.cjs')).size;
    const thin = statSync(file);
    expect(thin.size).toBeLessThan(source / 2);
    // the single executable's cache (scripts/sea-main.cjs) is of another kind: never removed here
    const sea = `sea-0123456789abcdef-${process.version}-${process.arch}.v8cache`;
    writeFileSync(join(d, sea), 'the executable\'s');
    expect(await run(d, OTHER_FLAGS)).toEqual(plain);
    const full = statSync(file);
    expect(full.ino).not.toBe(thin.ino);
    expect(full.size).toBeGreaterThan(source / 2);
    expect(await run(d, OTHER_FLAGS)).toEqual(plain);
    expect(statSync(file).ino).toBe(full.ino);
    expect(readdirSync(d).sort()).toEqual([name, sea].sort());
  });

  it('CRDX_COMPILE_CACHE=0 reads and writes none; an unwritable cache directory changes nothing', async () => {
    const d = join(dir, 'off');
    const plain = await run(d, OTHER_FLAGS, { CRDX_COMPILE_CACHE: '0' });
    expect(() => readdirSync(d)).toThrow();
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, '');
    const r = await run(join(blocked, 'sub'), OTHER_FLAGS);
    expect(r).toEqual(plain);
  });

  it.runIf(process.platform === 'linux')('a cache directory under /proc (Node 20\'s recursive mkdir never returns there) changes nothing', async () => {
    const plain = await run(join(dir, 'plain-proc'), OTHER_FLAGS, { CRDX_COMPILE_CACHE: '0' });
    const r = await execa('node', [...OTHER_FLAGS, 'bin/kubectl-crdx', ...ARGS], {
      cwd: ROOT,
      reject: false,
      stdin: 'ignore',
      timeout: 60_000,
      env: { NO_COLOR: '1', CRDX_CACHE_DIR: '/proc/crdx-no-such-dir/cache' },
    });
    expect(r.timedOut).toBe(false);
    expect({ code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) }).toEqual(plain);
  });
});
