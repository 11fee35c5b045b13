import { isCrdManifest } from '../crd/model.js';
import { parseFile, type Manifest, type ParsedDocument, type SourceFile } from '../manifest/parse.js';
import { splitDocuments } from '../manifest/split.js';

/**
 * The CRDs of the --crd files that the input needs. Reference CRDs serve one purpose in a lint: the
 * custom resources of the input are checked against them (their own problems are not reported). So
 * only the `---` parts of those files that may define the kind of an object of the input are read. A
 * part may define kind K when its text has a `kind` key with the value K, in any of the forms YAML and
 * JSON give it (quoted or not, on the next line, as a block scalar, after an anchor or a tag); or when
 * it has K as a word and an alias or an explicit key (through which the value could come); or an
 * escape that could spell a letter (`\x`, `\u`, `\U`, an escaped line break). When a kind of the
 * input is not a plain name (letters and digits), every part is read. The parts kept are read in
 * their order, so the first CRD of a group and kind stays the first.
 */
export function referenceCrds(crdFiles: readonly SourceFile[], inputs: readonly ParsedDocument[][]): Manifest[] {
  if (crdFiles.length === 0) return [];
  const kinds = inputKinds(inputs);
  const may = kinds === undefined ? undefined : mayDefine(kinds);
  return crdFiles.flatMap((f) => parseFile(may === undefined ? f : partsFor(f, may)).flatMap((d) => d.manifests)).filter(isCrdManifest);
}

/** The kinds of the input's objects that are not CRDs; undefined when one is not a plain name. */
function inputKinds(inputs: readonly ParsedDocument[][]): string[] | undefined {
  const kinds = new Set<string>();
  for (const docs of inputs)
    for (const d of docs)
      for (const m of d.manifests) {
        if (m.kind === undefined || m.kind === 'CustomResourceDefinition') continue;
        if (!/^[A-Za-z0-9]+$/.test(m.kind)) return undefined;
        kinds.add(m.kind);
      }
  return [...kinds];
}

/** Escapes in a double-quoted scalar that could spell a letter (so a kind, or CustomResourceDefinition). */
export const SPELLING_ESCAPE = /\\(?:[xuU]|\r?\n)/;
/** An alias or an explicit key: a value could come from elsewhere in the part. */
const INDIRECT = /(?:^|[\s{,[])\?(?:[ \t]|$)|(?:^|[\s:,[{-])\*[^\s,[\]{}*]/m;

/** Whether a part may define one of the kinds. */
function mayDefine(kinds: readonly string[]): (text: string) => boolean {
  if (kinds.length === 0) return () => false;
  const k = `(?:${kinds.join('|')})(?![A-Za-z0-9])`;
  const word = new RegExp(`(?<![A-Za-z0-9])${k}`);
  // the key (quoted or not), the separator; comment and blank lines; properties; a block scalar's header
  const value = new RegExp(
    `(?:^|[\\s{,"'])kind["']?[ \\t]*:[ \\t]*(?:(?:#[^\\n]*)?\\r?\\n(?:[ \\t]*(?:#[^\\n]*)?\\r?\\n)*[ \\t]*)?` +
      `(?:[&!]\\S*[ \\t]+)*(?:[|>][-+0-9]*[ \\t]*(?:#[^\\n]*)?\\r?\\n(?:[ \\t]*\\r?\\n)*[ \\t]*)?["']?${k}`,
    'm',
  );
  return (text) => SPELLING_ESCAPE.test(text) || (word.test(text) && (value.test(text) || INDIRECT.test(text)));
}

/** The file with only the `---` parts that may define one of the kinds. */
function partsFor(f: SourceFile, may: (text: string) => boolean): SourceFile {
  const parts = splitDocuments(f.text);
  const kept = parts.filter((p) => may(p.text));
  if (kept.length === parts.length) return f;
  return { path: f.path, text: kept.map((p) => p.text).join('') };
}
