import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** ../shared/corpus beside the repository (present in CI); tests skip with a message when absent. */
export const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');
export const HAVE_CORPUS = existsSync(join(CORPUS, 'crds'));
export const NO_CORPUS_REASON = `../shared/corpus not found at ${CORPUS}: corpus tests skipped`;

export interface CorpusFile {
  readonly project: string;
  readonly path: string;
  readonly text: string;
}

export function corpusFiles(kind: 'crds' | 'samples'): CorpusFile[] {
  if (!HAVE_CORPUS) return [];
  const root = join(CORPUS, kind);
  const out: CorpusFile[] = [];
  for (const project of readdirSync(root).sort())
    for (const f of readdirSync(join(root, project)).sort())
      if (/\.ya?ml$/.test(f)) out.push({ project, path: join(root, project, f), text: readFileSync(join(root, project, f), 'utf8') });
  return out;
}

/**
 * CRD files from outside the corpus: CRDX_EXTRA_CRDS=DIR (e.g. other projects' CRDs, one
 * subdirectory per project), for the differential suites that take them (lint, cel-cost). None
 * when unset.
 */
export function extraCrdFiles(): CorpusFile[] {
  const root = process.env['CRDX_EXTRA_CRDS'];
  if (!root) return [];
  const out: CorpusFile[] = [];
  const walk = (dir: string, project: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.isDirectory()) walk(join(dir, e.name), project === '' ? e.name : project);
      else if (/\.ya?ml$/.test(e.name)) out.push({ project: project === '' ? 'extra' : project, path: join(dir, e.name), text: readFileSync(join(dir, e.name), 'utf8') });
    }
  };
  walk(root, '');
  return out;
}
