// Writes src/go/print-table.ts from the `printable` ranges Go recorded in test/go/go-vectors.json:
//   node test/go/vectors/print-table.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../../../', import.meta.url);
const v = JSON.parse(readFileSync(new URL('test/go/go-vectors.json', root), 'utf8'));
const flat = v.printable.flat();
const lines = [];
for (let i = 0; i < flat.length; i += 12) lines.push(`  ${flat.slice(i, i + 12).map((n) => `0x${n.toString(16)}`).join(', ')},`);
writeFileSync(
  new URL('src/go/print-table.ts', root),
  `/**
 * The code points strconv.IsPrint accepts in ${v.go} (its Unicode version, whatever the version of
 * the JS engine's Unicode tables), as inclusive [first, last] pairs in ascending order.
 * Generated: cd test/go/vectors && go run . > ../go-vectors.json && node print-table.mjs
 */
export const PRINTABLE_RANGES: readonly number[] = [
${lines.join('\n')}
];
`,
);
