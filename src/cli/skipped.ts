/** What default, status and scale say about the objects of built-in kinds they skip. */
import { InputError } from '../core/errors.js';
import { printable } from '../formatters/stylish.js';
import type { Manifest } from '../manifest/parse.js';

/** One note per object of a built-in kind that was skipped (stderr). */
export function skippedNotes(skipped: readonly Manifest[]): string {
  return skipped
    .map((m) => {
      const pos = m.locate(['kind']);
      return `note: ${printable(m.file.path)}:${pos.line}:${pos.column}: ${printable(`${m.kind ?? '(no kind)'} ${m.apiVersion ?? ''}${m.name ? ` ${m.name}` : ''}`)} is a built-in kind, not a custom resource: skipped\n`;
    })
    .join('');
}

/** No custom resource at all: why, counting what was skipped. */
export function noCustomResources(skipped: readonly Manifest[]): InputError {
  const why = skipped.length > 0 ? `only built-in kinds (${skipped.length} object${skipped.length === 1 ? '' : 's'} skipped), CustomResourceDefinitions or empty documents` : 'only CustomResourceDefinitions or empty documents';
  return new InputError('no-input', `no custom resources in the input (${why})`);
}
