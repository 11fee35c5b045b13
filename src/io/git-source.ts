/**
 * lint --old git:REV: the input paths as a git revision has them, read without a checkout
 * (`git ls-tree` lists the files, `git show REV:path` reads each one).
 */
import { execFile } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { InputError } from '../core/errors.js';
import type { SourceFile } from '../manifest/parse.js';

const MANIFEST_EXT = /\.(ya?ml|json)$/i;
const MAX_BUFFER = 256 * 1024 * 1024;

function git(args: readonly string[], cwd: string): Promise<string> {
  return new Promise((ok, fail) => {
    execFile('git', [...args], { cwd, maxBuffer: MAX_BUFFER, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) fail(new InputError('unreadable', `git ${args.join(' ')}: ${(stderr || err.message).trim()}`));
      else ok(stdout);
    });
  });
}

/**
 * The files under `paths` (files or directories, relative to `cwd`) at revision `rev` of the
 * repository `cwd` is in; each file's path is `REV:path-in-repository`. Stdin (`-`) has no revision.
 */
export async function readGitRevision(rev: string, paths: readonly string[], cwd: string): Promise<SourceFile[]> {
  if (rev === '') throw new InputError('unreadable', '--old git:REV needs a revision, e.g. git:HEAD or git:v1.2.0');
  const top = (await git(['rev-parse', '--show-toplevel'], cwd)).trim();
  await git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], top).catch(() => {
    throw new InputError('unreadable', `--old git:${rev}: no such revision in ${top}`);
  });
  const out: SourceFile[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    if (p === '-') continue;
    const rel = relative(top, resolve(cwd, p)).split('\\').join('/');
    const listed = (await git(['ls-tree', '-r', '--name-only', '-z', rev, '--', rel === '' ? '.' : rel], top)).split('\0').filter((n) => n !== '');
    for (const name of listed) {
      // a file named on the command line is read whatever its extension; a directory's only *.yaml, *.yml, *.json
      if (name !== rel && !MANIFEST_EXT.test(name)) continue;
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({ path: `${rev}:${name}`, text: await git(['show', `${rev}:${name}`], top) });
    }
  }
  return out;
}
