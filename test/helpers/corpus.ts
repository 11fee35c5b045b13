import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { yamlFiles } from './files.js';

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
  // the project: the first directory below the root ('extra' for a file directly in it)
  return yamlFiles(root).map((path) => {
    const rel = relative(root, path).split(sep);
    return { project: rel.length > 1 ? rel[0]! : 'extra', path, text: readFileSync(path, 'utf8') };
  });
}

/**
 * Custom resources from outside the corpus: CRDX_EXTRA_SAMPLES=DIR (e.g. other projects' examples,
 * one subdirectory per project), checked against CRDX_EXTRA_CRDS's CRDs and the corpus's by the
 * differential suites that take them (cel). None when unset.
 */
export function extraSampleFiles(): CorpusFile[] {
  const root = process.env['CRDX_EXTRA_SAMPLES'];
  if (!root) return [];
  return yamlFiles(root).map((path) => {
    const rel = relative(root, path).split(sep);
    return { project: rel.length > 1 ? rel[0]! : 'extra', path, text: readFileSync(path, 'utf8') };
  });
}
