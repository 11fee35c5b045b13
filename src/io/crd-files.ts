import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceFile } from '../manifest/parse.js';

const MANIFEST_EXT = /\.(ya?ml|json)$/i;
/** Directories of a workspace never searched for CRDs. */
const SKIP_DIRS = new Set(['node_modules', 'dist', 'out', 'build', 'vendor']);
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * The YAML and JSON files under the paths (files or directories, walked recursively in sorted order,
 * hidden and build directories skipped) whose text may hold a CustomResourceDefinition: the CRDs the
 * language server validates custom resources against. Unreadable paths are skipped.
 */
export async function readCrdFiles(paths: readonly string[]): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  const seen = new Set<string>();
  const visit = async (p: string, explicit: boolean): Promise<void> => {
    if (seen.has(p)) return;
    seen.add(p);
    let st;
    try {
      st = await stat(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      let names: string[];
      try {
        names = (await readdir(p)).sort();
      } catch {
        return;
      }
      for (const n of names) if (!n.startsWith('.') && !SKIP_DIRS.has(n)) await visit(join(p, n), false);
      return;
    }
    if (!st.isFile() || st.size > MAX_BYTES || (!explicit && !MANIFEST_EXT.test(p))) return;
    try {
      const text = await readFile(p, 'utf8');
      if (text.includes('CustomResourceDefinition')) out.push({ path: p, text });
    } catch {
      // unreadable: no CRDs from it
    }
  };
  for (const p of paths) await visit(p, true);
  return out;
}
