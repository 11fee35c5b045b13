/**
 * Files of `kubectl crdx test`: the test files under the given paths (`*.crdx-test.yaml`), and the
 * files a test file names, relative to its directory: CRD paths, directories and globs (`*`, `?`,
 * `**`), and object files.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SourceFile } from '../manifest/parse.js';
import { readInputs } from './inputs.js';

const TEST_FILE = /\.crdx-test\.ya?ml$/;
const SKIP_DIRS = new Set(['node_modules', '.git']);

/** Test files: a file given is taken whatever its name; directories are walked for *.crdx-test.yaml (sorted). */
export async function findTestFiles(paths: readonly string[]): Promise<{ files: string[]; problems: { path: string; message: string }[] }> {
  const files: string[] = [];
  const problems: { path: string; message: string }[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) await walk(p);
      } else if (TEST_FILE.test(e.name)) files.push(p);
    }
  };
  for (const p of paths) {
    try {
      const st = await stat(p);
      if (st.isDirectory()) await walk(p);
      else files.push(p);
    } catch (e) {
      problems.push({ path: p, message: (e as NodeJS.ErrnoException).code === 'ENOENT' ? `${p}: no such file or directory` : `${p}: ${(e as Error).message}` });
    }
  }
  return { files, problems };
}

export async function readTextFile(path: string): Promise<SourceFile> {
  return { path, text: new TextDecoder('utf-8').decode(await readFile(path)) };
}

/** --update: the test file rewritten in place. */
export async function writeTextFile(path: string, text: string): Promise<void> {
  await writeFile(path, text, 'utf8');
}

/** --init: writes a file that must not exist yet; false when it does. */
export async function writeNewTextFile(path: string, text: string): Promise<boolean> {
  try {
    await writeFile(path, text, { encoding: 'utf8', flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

const GLOB = /[*?[]/;

/** A glob segment as a RegExp (`*` and `?` within a name, `[...]` classes). */
function segmentRegExp(seg: string): RegExp {
  let re = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = seg.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${seg.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Paths matching a glob (relative to base), sorted; directories as such are not matched, only files. */
async function glob(base: string, pattern: string): Promise<string[]> {
  const segs = pattern.split('/').filter((s) => s !== '' && s !== '.');
  const root = isAbsolute(pattern) ? sep : base;
  const out = new Set<string>();
  const step = async (dir: string, i: number): Promise<void> => {
    if (i === segs.length) return;
    const seg = segs[i]!;
    if (seg === '**') {
      await step(dir, i + 1);
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) if (e.isDirectory() && !SKIP_DIRS.has(e.name)) await step(join(dir, e.name), i);
      return;
    }
    if (!GLOB.test(seg)) {
      const p = join(dir, seg);
      if (i === segs.length - 1) {
        try {
          if ((await stat(p)).isFile()) out.add(p);
        } catch {
          // no match
        }
      } else await step(p, i + 1);
      return;
    }
    const re = segmentRegExp(seg);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!re.test(e.name)) continue;
      const p = join(dir, e.name);
      if (i === segs.length - 1) {
        if (e.isFile()) out.add(p);
      } else if (e.isDirectory()) await step(p, i + 1);
    }
  };
  await step(root, 0);
  return [...out].sort();
}

/** A path as shown: relative to the working directory when below it. */
function shown(p: string, cwd: string): string {
  const r = relative(cwd, resolve(p));
  return r !== '' && !r.startsWith('..') && !isAbsolute(r) ? r : p;
}

export interface NamedFiles {
  readonly crdFiles: Map<string, SourceFile[]>;
  readonly objectFiles: Map<string, SourceFile>;
  readonly problems: Map<string, string>;
}

/**
 * The files a test file names. CRD entries: a file, a directory (its *.yaml, *.yml, *.json) or a
 * glob; object entries: a file. Keys are the entries as written.
 */
export async function readNamedFiles(testFile: string, crdPatterns: readonly string[], objectPaths: readonly string[], cwd: string): Promise<NamedFiles> {
  const base = dirname(testFile);
  const crdFiles = new Map<string, SourceFile[]>();
  const objectFiles = new Map<string, SourceFile>();
  const problems = new Map<string, string>();
  // read at their real paths, named as shown (relative to cwd when below it)
  const named = (f: SourceFile): SourceFile => ({ path: shown(f.path, cwd), text: f.text });
  for (const pat of crdPatterns) {
    if (crdFiles.has(pat) || problems.has(pat)) continue;
    if (GLOB.test(pat)) {
      const files: SourceFile[] = [];
      for (const p of await glob(base, pat)) {
        try {
          files.push(named(await readTextFile(p)));
        } catch (e) {
          problems.set(pat, `${shown(p, cwd)}: ${(e as Error).message}`);
        }
      }
      crdFiles.set(pat, files);
      continue;
    }
    const full = isAbsolute(pat) ? pat : join(base, pat);
    const r = await readInputs([full], async () => '');
    if (r.problems.length > 0) problems.set(pat, r.problems.map((p) => p.message.split(full).join(shown(full, cwd))).join('; '));
    else crdFiles.set(pat, r.files.map(named));
  }
  for (const p of objectPaths) {
    if (objectFiles.has(p) || problems.has(p)) continue;
    const full = isAbsolute(p) ? p : join(base, p);
    try {
      objectFiles.set(p, named(await readTextFile(full)));
    } catch (e) {
      problems.set(p, (e as NodeJS.ErrnoException).code === 'ENOENT' ? `${shown(full, cwd)}: no such file or directory` : `${shown(full, cwd)}: ${(e as Error).message}`);
    }
  }
  return { crdFiles, objectFiles, problems };
}
