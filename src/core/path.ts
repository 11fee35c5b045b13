import type { JsonPath } from './types.js';

/** Parents whose children are map keys: printed as [key], like field.Path.Key. */
const MAP_PARENTS = new Set([
  'properties',
  'definitions',
  'dependencies',
  'patternProperties',
  'labels',
  'annotations',
]);

const IDENT = /^[A-Za-z_$][\w$-]*$/;

/**
 * Prints a path the way the API server prints field paths:
 * spec.versions[0].schema.openAPIV3Schema.properties[spec].type
 */
export function formatPath(path: JsonPath): string {
  let out = '';
  let parent: string | number | undefined;
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if ((typeof parent === 'string' && MAP_PARENTS.has(parent)) || !IDENT.test(seg)) out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
    parent = seg;
  }
  return out;
}

/**
 * A location carried through the server-faithful validation: the server's field path
 * (string, with the server's quirks) and the manifest path where the value really sits.
 */
export class Loc {
  constructor(
    readonly field: string,
    readonly at: JsonPath,
  ) {}

  /** A struct field: server `.name`, manifest key `manifestKey` (defaults to the same name). */
  child(name: string, manifestKey: string | number | null = name): Loc {
    const field = this.field === '' ? name : `${this.field}.${name}`;
    return new Loc(field, manifestKey === null ? this.at : [...this.at, manifestKey]);
  }

  /** A map key: server `[key]`. */
  key(k: string): Loc {
    return new Loc(`${this.field}[${k}]`, [...this.at, k]);
  }

  index(i: number): Loc {
    return new Loc(`${this.field}[${i}]`, [...this.at, i]);
  }

  /** Same server field, different manifest location. */
  withAt(at: JsonPath): Loc {
    return new Loc(this.field, at);
  }
}
