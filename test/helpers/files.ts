import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { goCompare } from '../../src/go/strings.js';

/** Every *.yaml / *.yml below a directory, depth first, in Go's (byte) order; [] when it does not exist. */
export function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => goCompare(a.name, b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out;
}
