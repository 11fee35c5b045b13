import { readdir, readFile, stat } from './fs-callbacks.js';
import { join } from 'node:path';
import type { SourceFile } from '../manifest/parse.js';

interface InputProblem {
  readonly path: string;
  readonly message: string;
}

export interface Inputs {
  readonly files: SourceFile[];
  readonly problems: InputProblem[];
}

const MANIFEST_EXT = /\.(ya?ml|json)$/i;
/** Files larger than this are refused with a clear message instead of exhausting memory. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** Reads paths (files, directories walked recursively in sorted order, `-` for stdin). */
export async function readInputs(paths: readonly string[], readStdin: () => Promise<string>): Promise<Inputs> {
  const files: SourceFile[] = [];
  const problems: InputProblem[] = [];
  // a path given twice (`lint - -` reads stdin once) is read once
  for (const p of [...new Set(paths)]) {
    if (p === '-') {
      files.push({ path: '-', text: await readStdin() });
      continue;
    }
    await readPath(p, files, problems, true);
  }
  return { files, problems };
}

async function readPath(p: string, files: SourceFile[], problems: InputProblem[], explicit: boolean): Promise<void> {
  let st;
  try {
    st = await stat(p);
  } catch (e) {
    problems.push({ path: p, message: describeFsError(e, p) });
    return;
  }
  if (st.isDirectory()) {
    let entries;
    try {
      entries = await readdir(p, { withFileTypes: true });
    } catch (e) {
      problems.push({ path: p, message: describeFsError(e, p) });
      return;
    }
    const names = entries.map((e) => e.name).sort();
    for (const name of names) {
      const ent = entries.find((e) => e.name === name)!;
      const child = join(p, name);
      if (ent.isDirectory()) await readPath(child, files, problems, false);
      else if (MANIFEST_EXT.test(name)) await readPath(child, files, problems, false);
    }
    return;
  }
  if (!explicit && !MANIFEST_EXT.test(p)) return;
  if (st.size > MAX_FILE_BYTES) {
    problems.push({ path: p, message: `${p}: file is ${st.size} bytes, larger than the ${MAX_FILE_BYTES}-byte limit` });
    return;
  }
  try {
    const buf = await readFile(p);
    files.push({ path: p, text: decodeText(buf) });
  } catch (e) {
    problems.push({ path: p, message: describeFsError(e, p) });
  }
}

function decodeText(buf: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(buf);
}

function describeFsError(e: unknown, p: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return `${p}: no such file or directory`;
    case 'EACCES':
    case 'EPERM':
      return `${p}: permission denied`;
    case 'EISDIR':
      return `${p}: is a directory`;
    default:
      return `${p}: ${(e as Error).message}`;
  }
}
