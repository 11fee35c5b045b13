/** Small pure helpers of the language server: URIs, field paths, text positions. */
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { JsonPath } from '../core/types.js';

/** The path findings carry for a document: the file system path of a file: URI, else the URI itself. */
export function uriToPath(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

export function pathToUri(path: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(path) && !/^[a-z]:[\\/]/i.test(path) ? path : pathToFileURL(path).href;
}

/**
 * A path as lint prints it (`spec.ports[0].name`, `metadata.labels[a.b/c]`) back into segments: a
 * bracketed number is an index, any other bracketed text a key.
 */
export function parseFieldPath(s: string): JsonPath {
  const out: (string | number)[] = [];
  const re = /\[([^\]]*)\]|([^.[\]]+)/g;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    if (m[1] !== undefined) out.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    else out.push(m[2]!);
  }
  return out;
}

/** The kinds a YAML or JSON text names (`kind: X`, `"kind": "X"`); undefined when one is not a plain name. */
export function kindsNamed(text: string): Set<string> | undefined {
  const out = new Set<string>();
  const re = /(?:^|[\s{,])["']?kind["']?[ \t]*:[ \t]*(["']?)([^\s"',}#]*)\1/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const k = m[2]!;
    if (!/^[A-Za-z0-9]+$/.test(k)) return undefined;
    out.add(k);
  }
  return out;
}

export function mayHoldCrd(text: string): boolean {
  return text.includes('CustomResourceDefinition');
}
