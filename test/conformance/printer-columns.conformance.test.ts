/**
 * Printer columns as a real apiextensions-apiserver serves them: every fixture CRD of the printer
 * column rules is installed, its custom resources are listed as a Table, and the column headers
 * must be what lint says a table shows: NAME and every column, NAME and AGE when none is declared,
 * and, when a column's JSONPath cannot be parsed, only the columns the printer-column-jsonpath
 * finding names (the converter stops at the first bad column). Also every v1 corpus CRD with
 * printer columns, as it is and with the JSONPath of its second column (of every version) broken.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { lintYaml } from '../helpers/lint.js';
import { yamlFiles } from '../helpers/files.js';
import { corpusFiles } from '../helpers/corpus.js';
import { deleteAllCRDs, goAvailable, installCRD, startHarness, type Harness } from './harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HAVE_GO = goAvailable();
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
type Obj = Record<string, any>;
interface Case {
  readonly name: string;
  readonly text: string;
  readonly crd: Obj;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const file of ['printer-column-jsonpath', 'printer-columns'].flatMap((r) => yamlFiles(join(ROOT, 'fixtures', 'rules', r)))) {
    const text = readFileSync(file, 'utf8');
    out.push({ name: file.slice(ROOT.length + 1), text, crd: parseAllDocuments(text)[0]!.toJS() as Obj });
  }
  for (const f of corpusFiles('crds'))
    for (const doc of parseAllDocuments(f.text)) {
      const crd = doc.toJS() as Obj | null;
      if (crd?.apiVersion !== 'apiextensions.k8s.io/v1' || crd.kind !== 'CustomResourceDefinition' || !Array.isArray(crd.spec?.versions)) continue;
      const versions = crd.spec.versions as Obj[];
      if (!versions.some((v) => (v.additionalPrinterColumns ?? []).length > 0)) continue;
      const name = `corpus: ${f.project}/${crd.metadata?.name}`;
      out.push({ name, text: JSON.stringify(crd), crd });
      if (!versions.some((v) => (v.additionalPrinterColumns ?? []).length > 1)) continue;
      const broken = structuredClone(crd);
      for (const v of broken.spec.versions as Obj[]) if ((v.additionalPrinterColumns ?? []).length > 1) v.additionalPrinterColumns[1].jsonPath += '[';
      out.push({ name: `${name}, second column's path broken`, text: JSON.stringify(broken), crd: broken });
    }
  return out;
}

/** The headers lint implies for each served version of the CRD in `text`. */
function expected(text: string, crd: Obj): Map<string, string[]> {
  const findings = lintYaml(text).filter((f) => f.ruleId === 'printer-column-jsonpath');
  const out = new Map<string, string[]>();
  const versions = crd.spec.versions as Obj[];
  versions.forEach((v) => {
    if (v.served !== true) return;
    const cols = (v.additionalPrinterColumns ?? []) as Obj[];
    // columns equal in every version are reported once, at the first version (the server hoists them)
    const f = findings.find((x) => versions.some((w, j) => x.path.startsWith(`spec.versions[${j}].`) && isDeepStrictEqual(w.additionalPrinterColumns, v.additionalPrinterColumns)));
    const shown = f ? /tables show only (.*)$/.exec(f.message)![1]!.split(', ') : ['NAME', ...(cols.length > 0 ? cols.map((c) => String(c.name)) : ['AGE'])];
    out.set(String(v.name), shown.map((s) => s.toUpperCase()));
  });
  return out;
}

describe.skipIf(!HAVE_GO)('printer columns agree with a real apiextensions-apiserver', () => {
  let h: Harness;
  let compared = 0;
  beforeAll(async () => {
    h = await startHarness();
  }, 1_800_000);
  afterAll(async () => {
    console.log(`conformance tally (printer columns): ${compared} versions compared`);
    await h?.stop();
  });

  for (const { name, text, crd } of cases()) {
    it(name, async () => {
      await deleteAllCRDs(h);
      const why = await installCRD(h, crd);
      if (why !== undefined) {
        // a CRD the server refuses has no table; lint must refuse it too
        expect(lintYaml(text).filter((f) => f.severity === 'error').length, why).toBeGreaterThan(0);
        return;
      }
      for (const [version, headers] of expected(text, crd)) {
        const path = `/apis/${crd.spec.group}/${version}/${crd.spec.names.plural}`;
        let r = await h.request('GET', path, undefined, { accept: TABLE });
        // a freshly established CRD's storage answers 429 "storage is (re)initializing" for a moment
        for (let i = 0; r.status === 429 && i < 60; i++) {
          await new Promise((res) => setTimeout(res, 500));
          r = await h.request('GET', path, undefined, { accept: TABLE });
        }
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect((r.body.columnDefinitions as Obj[]).map((c) => String(c.name).toUpperCase()), `${version}`).toEqual(headers);
        compared++;
      }
    }, 120_000);
  }
});
