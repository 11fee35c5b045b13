import { describe, expect, it } from 'vitest';
import type { Finding, Summary } from '../../src/core/types.js';
import { escapeData, escapeProperty, github } from '../../src/formatters/github.js';
import { FORMAT_NAMES, loadFormatter } from '../../src/formatters/index.js';
import { json } from '../../src/formatters/json.js';
import { escapeAttr, escapeText, junit } from '../../src/formatters/junit.js';
import { artifactUri, displayPath, sarif } from '../../src/formatters/sarif.js';
import { stylish } from '../../src/formatters/stylish.js';
import { PLAIN_STYLE, type FormatterContext, type RuleDocs } from '../../src/formatters/types.js';

// ---------------------------------------------------------------------------
// One fixed list of findings, already in engine order (file, document, line, …).
// ---------------------------------------------------------------------------

const CWD = '/repo';
const WIDGETS = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'widgets.example.com' } as const;
const GADGETS = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'gadgets.example.com' } as const;
/** Quotes, markup, %, CR/LF, a C0 control, an astral character, a tab and a non-character (U+FFFE). */
const NASTY = 'field "a<b>&\'c\'" at 100%:\r\nline two, has \u0001 and \u{1F600}\tand \uFFFE';

const STDIN_INFO: Finding = {
  ruleId: 'status-subresource-suggested',
  severity: 'info',
  message: 'version v1 has a status property but no /status subresource',
  messageId: 'missing',
  file: '-',
  line: 3,
  column: 1,
  document: 0,
  object: WIDGETS,
  path: 'spec.versions[0]',
};
const ESCAPING: Finding = {
  ruleId: 'description-recommended',
  severity: 'warning',
  message: NASTY,
  messageId: 'missing',
  file: '/repo/crds/odd, name: 100%.yaml',
  line: 2,
  column: 5,
  document: 0,
  path: "spec.versions[0].schema.openAPIV3Schema.properties[a<b>&\"c']",
};
const FATAL_PARSE: Finding = {
  ruleId: 'parse',
  severity: 'error',
  message: 'Nested mappings are not allowed in compact mappings',
  messageId: 'yaml-syntax',
  file: 'crds/broken.yaml',
  line: 4,
  column: 3,
  document: 1,
  path: '',
  fatal: true,
};
const SERVER_ERROR: Finding = {
  ruleId: 'crd-spec-valid',
  severity: 'error',
  message: 'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
  messageId: 'server',
  file: 'crds/widgets.yaml',
  line: 7,
  column: 10,
  endLine: 7,
  endColumn: 16,
  document: 0,
  object: WIDGETS,
  path: 'spec.scope',
  server: {
    field: 'spec.scope',
    reason: 'FieldValueNotSupported',
    message: 'Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
  },
};
const MULTILINE_WARNING: Finding = {
  ruleId: 'printer-column-path-exists',
  severity: 'warning',
  message: 'jsonPath ".spec.size" matches no field of the schema',
  messageId: 'noField',
  file: 'crds/widgets.yaml',
  line: 20,
  column: 9,
  endLine: 22,
  endColumn: 3,
  document: 1,
  object: GADGETS,
  path: 'spec.versions[0].additionalPrinterColumns[0].jsonPath',
};

const FINDINGS: readonly Finding[] = [STDIN_INFO, ESCAPING, FATAL_PARSE, SERVER_ERROR, MULTILINE_WARNING];

const RULES: ReadonlyMap<string, RuleDocs> = new Map([
  ['crd-spec-valid', { description: "The CRD passes the API server's validation.", serverFaithful: true }],
  ['description-recommended', { description: 'Schema fields have descriptions.', serverFaithful: false }],
  ['printer-column-path-exists', { description: 'Printer column paths name schema fields.', serverFaithful: false }],
  ['status-subresource-suggested', { description: 'A status property comes with the /status subresource.', serverFaithful: false }],
]);
const SUMMARY: Summary = { files: 4, documents: 5, errors: 2, warnings: 2 };
const CTX: FormatterContext = { style: PLAIN_STYLE, cwd: CWD, rules: RULES, summary: SUMMARY, toolVersion: '9.9.9', files: [] };
const CLEAN_CTX: FormatterContext = { ...CTX, summary: { files: 2, documents: 3, errors: 0, warnings: 0 } };

// ---------------------------------------------------------------------------
// Tiny XML 1.0 well-formedness checker (xmllint is not assumed to be installed).
// Elements nest, attributes are quoted and unique, references are known, only XML 1.0 characters.
// ---------------------------------------------------------------------------

const NAME = '[A-Za-z_:][-A-Za-z0-9_.:]*';
const REF = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);/y;

function xmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || cp >= 0x10000;
}

function checkChars(s: string, where: string, attribute: boolean): void {
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) {
      i++;
      continue;
    }
    if (!xmlChar(cp)) throw new Error(`${where}: character U+${cp.toString(16)} is not allowed in XML 1.0`);
    if (ch === '<') throw new Error(`${where}: raw '<'`);
    if (attribute && ch === '"') throw new Error(`${where}: raw '"' in attribute`);
    if (ch === '&') {
      REF.lastIndex = i;
      const m = REF.exec(s);
      if (!m) throw new Error(`${where}: bad reference at ${s.slice(i, i + 10)}`);
      const num = /^&#(x?)([0-9A-Fa-f]+);$/.exec(m[0]);
      if (num && !xmlChar(parseInt(num[2]!, num[1] ? 16 : 10))) throw new Error(`${where}: ${m[0]} refers to a forbidden character`);
      i += m[0].length - 1;
    }
  }
}

/** Returns the root element name and the elements seen; throws on the first well-formedness error. */
function assertWellFormedXml(xml: string): { root: string; elements: { name: string; attrs: Record<string, string> }[] } {
  let rest = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const elements: { name: string; attrs: Record<string, string> }[] = [];
  let root: string | undefined;
  const tagRe = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*"[^"]*")*)\\s*(/?)>`);
  const attrRe = new RegExp(`(${NAME})\\s*=\\s*"([^"]*)"`, 'g');
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const text = lt === -1 ? rest : rest.slice(0, lt);
    if (text.length > 0) {
      if (stack.length === 0 && text.trim() !== '') throw new Error(`text outside the root element: ${JSON.stringify(text.slice(0, 20))}`);
      if (text.includes(']]>')) throw new Error("']]>' in text");
      checkChars(text, 'text', false);
    }
    if (lt === -1) break;
    rest = rest.slice(lt);
    const m = tagRe.exec(rest);
    if (!m) throw new Error(`malformed tag: ${JSON.stringify(rest.slice(0, 60))}`);
    const [whole, close, name, attrText, selfClose] = m;
    if (close) {
      if (attrText || selfClose) throw new Error(`malformed end tag </${name}>`);
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open ?? 'nothing'}>`);
    } else {
      if (stack.length === 0) {
        if (root !== undefined) throw new Error('more than one root element');
        root = name!;
      }
      const attrs: Record<string, string> = {};
      for (const a of attrText!.matchAll(attrRe)) {
        if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]} on <${name}>`);
        checkChars(a[2]!, `<${name} ${a[1]}>`, true);
        attrs[a[1]!] = a[2]!;
      }
      elements.push({ name: name!, attrs });
      if (!selfClose) stack.push(name!);
    }
    rest = rest.slice(whole!.length);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (root === undefined) throw new Error('no root element');
  return { root, elements };
}

// ---------------------------------------------------------------------------

describe('formatter registry', () => {
  it('loads the formatter of each format name', async () => {
    const byName = { stylish, json, sarif, junit, github };
    for (const name of FORMAT_NAMES) expect(await loadFormatter(name)).toBe(byName[name]);
  });

  it.each(FORMAT_NAMES)('%s is pure: same input, same output, input untouched', async (name) => {
    const copy = structuredClone(FINDINGS);
    const format = await loadFormatter(name);
    const a = format(FINDINGS, CTX);
    const b = format(FINDINGS, CTX);
    expect(a).toBe(b);
    expect(FINDINGS).toEqual(copy);
  });
});

describe('json', () => {
  it('prints findings and summary exactly', () => {
    const expected = `{
  "findings": [
    {
      "ruleId": "status-subresource-suggested",
      "messageId": "missing",
      "severity": "info",
      "message": "version v1 has a status property but no /status subresource",
      "file": "-",
      "line": 3,
      "column": 1,
      "document": 0,
      "object": {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "name": "widgets.example.com"
      },
      "path": "spec.versions[0]"
    },
    {
      "ruleId": "description-recommended",
      "messageId": "missing",
      "severity": "warning",
      "message": "field \\"a<b>&'c'\\" at 100%:\\r\\nline two, has \\u0001 and \u{1F600}\\tand \uFFFE",
      "file": "/repo/crds/odd, name: 100%.yaml",
      "line": 2,
      "column": 5,
      "document": 0,
      "path": "spec.versions[0].schema.openAPIV3Schema.properties[a<b>&\\"c']"
    },
    {
      "ruleId": "parse",
      "messageId": "yaml-syntax",
      "severity": "error",
      "message": "Nested mappings are not allowed in compact mappings",
      "file": "crds/broken.yaml",
      "line": 4,
      "column": 3,
      "document": 1,
      "path": "",
      "fatal": true
    },
    {
      "ruleId": "crd-spec-valid",
      "messageId": "server",
      "severity": "error",
      "message": "spec.scope: Unsupported value: \\"Global\\": supported values: \\"Cluster\\", \\"Namespaced\\"",
      "file": "crds/widgets.yaml",
      "line": 7,
      "column": 10,
      "document": 0,
      "object": {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "name": "widgets.example.com"
      },
      "path": "spec.scope",
      "server": {
        "field": "spec.scope",
        "reason": "FieldValueNotSupported",
        "message": "Unsupported value: \\"Global\\": supported values: \\"Cluster\\", \\"Namespaced\\""
      }
    },
    {
      "ruleId": "printer-column-path-exists",
      "messageId": "noField",
      "severity": "warning",
      "message": "jsonPath \\".spec.size\\" matches no field of the schema",
      "file": "crds/widgets.yaml",
      "line": 20,
      "column": 9,
      "document": 1,
      "object": {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "name": "gadgets.example.com"
      },
      "path": "spec.versions[0].additionalPrinterColumns[0].jsonPath"
    }
  ],
  "summary": {
    "files": 4,
    "documents": 5,
    "errors": 2,
    "warnings": 2
  }
}
`;
    const out = json(FINDINGS, CTX);
    expect(out).toBe(expected);
    expect(JSON.parse(out).findings[1].message).toBe(NASTY);
  });

  it('prints an empty list with the summary when there is nothing to report', () => {
    expect(JSON.parse(json([], CLEAN_CTX))).toEqual({ findings: [], summary: CLEAN_CTX.summary });
  });
});

describe('stylish (PLAIN_STYLE)', () => {
  it('groups by file and ends with the totals', () => {
    const expected = [
      '',
      '-',
      '  3:1  info    version v1 has a status property but no /status subresource  status-subresource-suggested (CustomResourceDefinition/widgets.example.com)',
      '',
      '/repo/crds/odd, name: 100%.yaml',
      // control characters are shown escaped, never sent to the terminal
      '  2:5  warning field "a<b>&\'c\'" at 100%:\\u000d\\nline two, has \\u0001 and \u{1F600}\tand \uFFFE  description-recommended (doc 0)',
      '',
      'crds/broken.yaml',
      '  4:3  error   Nested mappings are not allowed in compact mappings  parse (doc 1)',
      '',
      'crds/widgets.yaml',
      '  7:10  error   spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"  crd-spec-valid (CustomResourceDefinition/widgets.example.com)',
      '  20:9  warning jsonPath ".spec.size" matches no field of the schema  printer-column-path-exists (CustomResourceDefinition/gadgets.example.com)',
      '',
      '\u2716 4 problems (2 errors, 2 warnings) in 4 files, 5 documents',
      '',
    ].join('\n');
    expect(stylish(FINDINGS, CTX)).toBe(expected);
  });

  it('says "no problems" when clean', () => {
    expect(stylish([], CLEAN_CTX)).toBe('2 files, 3 documents: no problems\n');
  });

  it('uses no escape sequences with PLAIN_STYLE', () => {
    expect(stylish(FINDINGS.filter((f) => f !== ESCAPING), CTX)).not.toMatch(/\u001b\[/);
  });
});

describe('sarif', () => {
  const location = (uri: string, region: Record<string, number>) => [{ physicalLocation: { artifactLocation: { uri }, region } }];
  const expectedLog = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kubectl-crdx',
            version: '9.9.9',
            informationUri: 'https://github.com/kubectl-crdx/kubectl-crdx',
            rules: [
              {
                id: 'crd-spec-valid',
                shortDescription: { text: "The CRD passes the API server's validation." },
                fullDescription: { text: "The CRD passes the API server's validation. This rule reproduces the Kubernetes API server's own verdict." },
                helpUri: 'https://github.com/kubectl-crdx/kubectl-crdx/blob/v9.9.9/docs/rules/crd-spec-valid.md',
                properties: { serverFaithful: true },
              },
              {
                id: 'description-recommended',
                shortDescription: { text: 'Schema fields have descriptions.' },
                fullDescription: { text: 'Schema fields have descriptions. This rule is advice: the Kubernetes API server does not enforce it.' },
                helpUri: 'https://github.com/kubectl-crdx/kubectl-crdx/blob/v9.9.9/docs/rules/description-recommended.md',
                properties: { serverFaithful: false },
              },
              {
                id: 'parse',
                shortDescription: { text: 'The input can be read and parsed as YAML or JSON.' },
                fullDescription: {
                  text: 'The input can be read and parsed as YAML or JSON. A file that cannot be read, or a document with a syntax error, is not checked any further.',
                },
                properties: { serverFaithful: false },
              },
              {
                id: 'printer-column-path-exists',
                shortDescription: { text: 'Printer column paths name schema fields.' },
                fullDescription: { text: 'Printer column paths name schema fields. This rule is advice: the Kubernetes API server does not enforce it.' },
                helpUri: 'https://github.com/kubectl-crdx/kubectl-crdx/blob/v9.9.9/docs/rules/printer-column-path-exists.md',
                properties: { serverFaithful: false },
              },
              {
                id: 'status-subresource-suggested',
                shortDescription: { text: 'A status property comes with the /status subresource.' },
                fullDescription: {
                  text: 'A status property comes with the /status subresource. This rule is advice: the Kubernetes API server does not enforce it.',
                },
                helpUri: 'https://github.com/kubectl-crdx/kubectl-crdx/blob/v9.9.9/docs/rules/status-subresource-suggested.md',
                properties: { serverFaithful: false },
              },
            ],
          },
        },
        columnKind: 'utf16CodeUnits',
        results: [
          {
            ruleId: 'status-subresource-suggested',
            ruleIndex: 4,
            level: 'note',
            message: { text: 'version v1 has a status property but no /status subresource' },
            locations: location('stdin', { startLine: 3, startColumn: 1 }),
            partialFingerprints: { 'crdxFinding/v1': '80aedbc1bf4629376eaed46f234ea8dea9a195253cb649de0448cfaa903e6735' },
            properties: { messageId: 'missing', path: 'spec.versions[0]', document: 0 },
          },
          {
            ruleId: 'description-recommended',
            ruleIndex: 1,
            level: 'warning',
            message: { text: NASTY },
            locations: location('crds/odd%2C%20name%3A%20100%25.yaml', { startLine: 2, startColumn: 5 }),
            partialFingerprints: { 'crdxFinding/v1': '877f7262820bfb517b27ee632bc4162d3a778342ec939c3d6f9e6c928d91c327' },
            properties: { messageId: 'missing', path: "spec.versions[0].schema.openAPIV3Schema.properties[a<b>&\"c']", document: 0 },
          },
          {
            ruleId: 'parse',
            ruleIndex: 2,
            level: 'error',
            message: { text: 'Nested mappings are not allowed in compact mappings' },
            locations: location('crds/broken.yaml', { startLine: 4, startColumn: 3 }),
            partialFingerprints: { 'crdxFinding/v1': '1367698e3e706b2851b668fa080dd36ef93b99c54c7082c2761850f32994e392' },
            properties: { messageId: 'yaml-syntax', path: '', document: 1 },
          },
          {
            ruleId: 'crd-spec-valid',
            ruleIndex: 0,
            level: 'error',
            message: { text: 'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"' },
            locations: location('crds/widgets.yaml', { startLine: 7, startColumn: 10, endLine: 7, endColumn: 16 }),
            partialFingerprints: { 'crdxFinding/v1': '1a6bf2633f5ca21f40cda75ffa70eda9852d787fd33852370585bc0b174da6de' },
            properties: {
              messageId: 'server',
              path: 'spec.scope',
              document: 0,
              server: {
                field: 'spec.scope',
                reason: 'FieldValueNotSupported',
                message: 'Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
              },
            },
          },
          {
            ruleId: 'printer-column-path-exists',
            ruleIndex: 3,
            level: 'warning',
            message: { text: 'jsonPath ".spec.size" matches no field of the schema' },
            locations: location('crds/widgets.yaml', { startLine: 20, startColumn: 9, endLine: 22, endColumn: 3 }),
            partialFingerprints: { 'crdxFinding/v1': 'b43f4e9df4f40a60726c825650230ea3ea3332bde2742ae2d7018d06c63ea61b' },
            properties: { messageId: 'noField', path: 'spec.versions[0].additionalPrinterColumns[0].jsonPath', document: 1 },
          },
        ],
      },
    ],
  };

  it('prints the exact SARIF log', () => {
    expect(sarif(FINDINGS, CTX)).toBe(JSON.stringify(expectedLog, null, 2) + '\n');
  });

  /** The parts of a SARIF log the checks below read; everything is re-checked at runtime. */
  interface SarifShape {
    version: unknown;
    $schema: unknown;
    runs: {
      tool: { driver: { name: unknown; version: unknown; informationUri: string; rules: { id: string; shortDescription: { text: unknown }; properties: { serverFaithful: unknown } }[] } };
      results: {
        ruleId: string;
        ruleIndex: number;
        level: string;
        message: { text: string };
        locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number; endLine?: number } } }[];
        partialFingerprints: Record<string, string>;
      }[];
    }[];
  }

  it('has the fields SARIF 2.1.0 and GitHub code scanning require', () => {
    const log = JSON.parse(sarif(FINDINGS, CTX)) as SarifShape;
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/^https:\/\//);
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    const driver = run.tool.driver;
    expect(driver.name).toBe('kubectl-crdx');
    expect(typeof driver.version).toBe('string');
    expect(() => new URL(driver.informationUri)).not.toThrow();
    const ruleIds = driver.rules.map((r) => r.id);
    expect(new Set(ruleIds).size).toBe(ruleIds.length);
    for (const r of driver.rules) {
      expect(typeof r.id).toBe('string');
      expect(typeof r.shortDescription.text).toBe('string');
      expect(typeof r.properties.serverFaithful).toBe('boolean');
    }
    // every rule that appears has an entry, and only those
    expect(ruleIds.sort()).toEqual([...new Set(FINDINGS.map((f) => f.ruleId))].sort());
    expect(run.results).toHaveLength(FINDINGS.length);
    for (const res of run.results) {
      expect(ruleIds[res.ruleIndex]).toBe(res.ruleId);
      expect(['error', 'warning', 'note', 'none']).toContain(res.level);
      expect(typeof res.message.text).toBe('string');
      expect(res.message.text.length).toBeGreaterThan(0);
      expect(res.locations).toHaveLength(1);
      const { artifactLocation, region } = res.locations[0]!.physicalLocation;
      expect(artifactLocation.uri).not.toMatch(/\\|^\/|^[a-z]+:/i); // relative, forward slashes, no scheme
      expect(Number.isInteger(region.startLine) && region.startLine >= 1).toBe(true);
      expect(Number.isInteger(region.startColumn) && region.startColumn >= 1).toBe(true);
      if (region.endLine !== undefined) expect(region.endLine).toBeGreaterThanOrEqual(region.startLine);
      for (const v of Object.values(res.partialFingerprints)) expect(v).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('gives the parse rule an entry and maps severities to levels', () => {
    const log = JSON.parse(sarif([FATAL_PARSE, STDIN_INFO], CTX));
    expect(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['parse', 'status-subresource-suggested']);
    expect(log.runs[0].results.map((r: { level: string }) => r.level)).toEqual(['error', 'note']);
  });

  it('keeps fingerprints stable when the finding moves, distinct when what it is about differs', () => {
    const fp = (f: Finding) => JSON.parse(sarif([f], CTX)).runs[0].results[0].partialFingerprints['crdxFinding/v1'];
    expect(fp({ ...SERVER_ERROR, line: 70, column: 1, document: 3 })).toBe(fp(SERVER_ERROR));
    expect(fp({ ...SERVER_ERROR, file: '/repo/crds/widgets.yaml' })).toBe(fp(SERVER_ERROR));
    expect(fp({ ...SERVER_ERROR, object: GADGETS })).not.toBe(fp(SERVER_ERROR));
    expect(fp({ ...SERVER_ERROR, path: 'spec.group' })).not.toBe(fp(SERVER_ERROR));
    expect(fp({ ...SERVER_ERROR, ruleId: 'other' })).not.toBe(fp(SERVER_ERROR));
  });

  it('is a valid empty run when there are no findings', () => {
    const log = JSON.parse(sarif([], CLEAN_CTX));
    expect(log.runs[0].tool.driver.rules).toEqual([]);
    expect(log.runs[0].results).toEqual([]);
  });
});

describe('file paths for CI', () => {
  it.each([
    ['-', 'stdin', 'stdin'],
    ['crds/a.yaml', 'crds/a.yaml', 'crds/a.yaml'],
    ['./crds/./a.yaml', 'crds/a.yaml', 'crds/a.yaml'],
    ['crds\\sub\\a.yaml', 'crds/sub/a.yaml', 'crds/sub/a.yaml'],
    ['/repo/crds/a.yaml', 'crds/a.yaml', 'crds/a.yaml'],
    ['/repository/a.yaml', '/repository/a.yaml', 'file:///repository/a.yaml'],
    ['../other/a b.yaml', '../other/a b.yaml', '../other/a%20b.yaml'],
    ['crds/#1?.yaml', 'crds/#1?.yaml', 'crds/%231%3F.yaml'],
  ])('%s -> %s (uri %s)', (file, shown, uri) => {
    expect(displayPath(file, CWD)).toBe(shown);
    expect(artifactUri(file, CWD)).toBe(uri);
  });

  it('handles Windows paths', () => {
    expect(displayPath('C:\\work\\repo\\crds\\a.yaml', 'C:\\work\\repo')).toBe('crds/a.yaml');
    expect(artifactUri('D:\\x y\\a.yaml', 'C:\\work\\repo')).toBe('file:///D:/x%20y/a.yaml');
  });
});

describe('junit', () => {
  it('prints the exact report', () => {
    const expected = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="kubectl-crdx" tests="5" failures="3" errors="1">
  <testsuite name="stdin" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="status-subresource-suggested" name="stdin:3:1 spec.versions[0]">
      <system-out>version v1 has a status property but no /status subresource
rule: status-subresource-suggested
severity: info
location: stdin:3:1
path: spec.versions[0]
object: CustomResourceDefinition/widgets.example.com (document 0)</system-out>
    </testcase>
  </testsuite>
  <testsuite name="crds/odd, name: 100%.yaml" tests="1" failures="1" errors="0" skipped="0">
    <testcase classname="description-recommended" name="crds/odd, name: 100%.yaml:2:5 spec.versions[0].schema.openAPIV3Schema.properties[a&lt;b&gt;&amp;&quot;c&apos;]">
      <failure type="warning" message="field &quot;a&lt;b&gt;&amp;&apos;c&apos;&quot; at 100%:&#13;&#10;line two, has \\u0001 and \u{1F600}&#9;and \\uFFFE">field "a&lt;b&gt;&amp;'c'" at 100%:&#13;
line two, has \\u0001 and \u{1F600}\tand \\uFFFE
rule: description-recommended
severity: warning
location: crds/odd, name: 100%.yaml:2:5
path: spec.versions[0].schema.openAPIV3Schema.properties[a&lt;b&gt;&amp;"c']
document: 0</failure>
    </testcase>
  </testsuite>
  <testsuite name="crds/broken.yaml" tests="1" failures="0" errors="1" skipped="0">
    <testcase classname="parse" name="crds/broken.yaml:4:3">
      <error type="error" message="Nested mappings are not allowed in compact mappings">Nested mappings are not allowed in compact mappings
rule: parse
severity: error
location: crds/broken.yaml:4:3
document: 1</error>
    </testcase>
  </testsuite>
  <testsuite name="crds/widgets.yaml" tests="2" failures="2" errors="0" skipped="0">
    <testcase classname="crd-spec-valid" name="crds/widgets.yaml:7:10 spec.scope">
      <failure type="error" message="spec.scope: Unsupported value: &quot;Global&quot;: supported values: &quot;Cluster&quot;, &quot;Namespaced&quot;">spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"
rule: crd-spec-valid
severity: error
location: crds/widgets.yaml:7:10
path: spec.scope
object: CustomResourceDefinition/widgets.example.com (document 0)
server: FieldValueNotSupported at spec.scope</failure>
    </testcase>
    <testcase classname="printer-column-path-exists" name="crds/widgets.yaml:20:9 spec.versions[0].additionalPrinterColumns[0].jsonPath">
      <failure type="warning" message="jsonPath &quot;.spec.size&quot; matches no field of the schema">jsonPath ".spec.size" matches no field of the schema
rule: printer-column-path-exists
severity: warning
location: crds/widgets.yaml:20:9
path: spec.versions[0].additionalPrinterColumns[0].jsonPath
object: CustomResourceDefinition/gadgets.example.com (document 1)</failure>
    </testcase>
  </testsuite>
</testsuites>
`;
    expect(junit(FINDINGS, CTX)).toBe(expected);
  });

  it('is well-formed XML with consistent counts', () => {
    const { root, elements } = assertWellFormedXml(junit(FINDINGS, CTX));
    expect(root).toBe('testsuites');
    const suites = elements.filter((e) => e.name === 'testsuite');
    const cases = elements.filter((e) => e.name === 'testcase');
    const top = elements[0]!.attrs;
    expect(Number(top['tests'])).toBe(cases.length);
    expect(Number(top['failures'])).toBe(elements.filter((e) => e.name === 'failure').length);
    expect(Number(top['errors'])).toBe(elements.filter((e) => e.name === 'error').length);
    expect(suites.reduce((n, s) => n + Number(s.attrs['tests']), 0)).toBe(cases.length);
    expect(suites.map((s) => s.attrs['name'])).toEqual(['stdin', 'crds/odd, name: 100%.yaml', 'crds/broken.yaml', 'crds/widgets.yaml']);
  });

  it('survives every C0 control, lone surrogates and U+FFFF', () => {
    const all = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('') + '\uD800 \uDC00 \uFFFF ]]> end';
    const f: Finding = { ...SERVER_ERROR, message: all, path: all, server: { ...SERVER_ERROR.server!, field: all } };
    expect(() => assertWellFormedXml(junit([f], CTX))).not.toThrow();
  });

  it('the checker itself rejects broken XML', () => {
    expect(() => assertWellFormedXml('<a><b></a></b>')).toThrow();
    expect(() => assertWellFormedXml('<a x="1" x="2"/>')).toThrow();
    expect(() => assertWellFormedXml('<a>\u0001</a>')).toThrow();
    expect(() => assertWellFormedXml('<a>&nbsp;</a>')).toThrow();
    expect(() => assertWellFormedXml('<a>&#1;</a>')).toThrow();
    expect(() => assertWellFormedXml('<a/><b/>')).toThrow();
    expect(() => assertWellFormedXml('<a y="<"/>')).toThrow();
  });

  it('escapes attributes and text', () => {
    expect(escapeAttr('a&b<c>"d\'\t\n\r\u0000')).toBe('a&amp;b&lt;c&gt;&quot;d&apos;&#9;&#10;&#13;\\u0000');
    expect(escapeText('a&b<c>"d\'\t\n\r\u0000')).toBe('a&amp;b&lt;c&gt;"d\'\t\n&#13;\\u0000');
  });

  it('adds a passing testcase per clean file when the CLI passes the file list', () => {
    const ctx = { ...CTX, files: ['crds/widgets.yaml', 'crds/clean.yaml', '-'] } as FormatterContext;
    const out = junit([SERVER_ERROR], ctx);
    expect(out).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="kubectl-crdx" tests="3" failures="1" errors="0">
  <testsuite name="crds/widgets.yaml" tests="1" failures="1" errors="0" skipped="0">
    <testcase classname="crd-spec-valid" name="crds/widgets.yaml:7:10 spec.scope">
      <failure type="error" message="spec.scope: Unsupported value: &quot;Global&quot;: supported values: &quot;Cluster&quot;, &quot;Namespaced&quot;">spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"
rule: crd-spec-valid
severity: error
location: crds/widgets.yaml:7:10
path: spec.scope
object: CustomResourceDefinition/widgets.example.com (document 0)
server: FieldValueNotSupported at spec.scope</failure>
    </testcase>
  </testsuite>
  <testsuite name="crds/clean.yaml" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="kubectl-crdx" name="crds/clean.yaml"/>
  </testsuite>
  <testsuite name="stdin" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="kubectl-crdx" name="stdin"/>
  </testsuite>
</testsuites>
`);
    assertWellFormedXml(out);
  });

  it('has one passing testcase when nothing was found and no file list is known', () => {
    const out = junit([], CLEAN_CTX);
    expect(out).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="kubectl-crdx" tests="1" failures="0" errors="0">
  <testsuite name="kubectl-crdx" tests="1" failures="0" errors="0" skipped="0">
    <testcase classname="kubectl-crdx" name="2 files, 3 documents: no problems"/>
  </testsuite>
</testsuites>
`);
    assertWellFormedXml(out);
  });
});

describe('github', () => {
  it('prints one workflow command per finding', () => {
    const expected = [
      '::notice title=crdx status-subresource-suggested::stdin:3:1: version v1 has a status property but no /status subresource',
      `::warning file=crds/odd%2C name%3A 100%25.yaml,line=2,col=5,title=crdx description-recommended::field "a<b>&'c'" at 100%25:%0D%0Aline two, has \u0001 and \u{1F600}\tand \uFFFE`,
      '::error file=crds/broken.yaml,line=4,col=3,title=crdx parse::Nested mappings are not allowed in compact mappings',
      '::error file=crds/widgets.yaml,line=7,col=10,endLine=7,endColumn=16,title=crdx crd-spec-valid::spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
      // columns only count within one line, so a multi-line range keeps its lines only
      '::warning file=crds/widgets.yaml,line=20,endLine=22,title=crdx printer-column-path-exists::jsonPath ".spec.size" matches no field of the schema',
      '',
    ].join('\n');
    expect(github(FINDINGS, CTX)).toBe(expected);
  });

  it('never lets a message break out of its line', () => {
    for (const line of github(FINDINGS, CTX).trimEnd().split('\n')) expect(line).toMatch(/^::(error|warning|notice) [^\r\n]*::[^\r\n]*$/);
  });

  it("escapes data and properties the way the Actions runner decodes them", () => {
    expect(escapeData('100% a\r\nb: c, d')).toBe('100%25 a%0D%0Ab: c, d');
    expect(escapeProperty('100% a\r\nb: c, d')).toBe('100%25 a%0D%0Ab%3A c%2C d');
    expect(escapeData('%0A')).toBe('%250A'); // escaping is not applied twice
  });

  it('prints nothing when there is nothing to report', () => {
    expect(github([], CLEAN_CTX)).toBe('');
  });
});

describe('objects left unchecked (summary.unchecked): said in every format', () => {
  const unchecked = { objects: 3, kinds: ['Bar.foo.io', 'Widget.example.com'] };
  const ctx: FormatterContext = { ...CLEAN_CTX, summary: { ...CLEAN_CTX.summary, unchecked } };
  const text = '3 objects not checked: no CRD in the run defines their kinds (Bar.foo.io, Widget.example.com); give them with --crd';

  it('json: the counts and the text', () => {
    expect(JSON.parse(json([], ctx)).summary.unchecked).toEqual({ ...unchecked, message: text });
  });
  it('stylish: a line after the totals', () => {
    expect(stylish([], ctx)).toBe(`2 files, 3 documents: no problems\n\u26a0 ${text}\n`);
  });
  it('sarif: a warning notification', () => {
    const run = JSON.parse(sarif([], ctx)).runs[0];
    expect(run.invocations[0].toolExecutionNotifications).toEqual([{ level: 'warning', message: { text } }]);
  });
  it('junit: a skipped case', () => {
    expect(junit([], ctx)).toContain(`<testcase classname="kubectl-crdx" name="objects without a CRD">\n      <skipped message="${text}"/>`);
  });
  it('github: a warning annotation', () => {
    expect(github([], ctx)).toBe(`::warning title=crdx%3A objects not checked::${text}\n`);
  });
  it('one kind: singular wording; more than five kinds are cut', () => {
    const one = { ...CLEAN_CTX, summary: { ...CLEAN_CTX.summary, unchecked: { objects: 1, kinds: ['A.x.io'] } } };
    expect(JSON.parse(json([], one)).summary.unchecked.message).toBe('1 object not checked: no CRD in the run defines its kind (A.x.io); give it with --crd');
    const many = { ...CLEAN_CTX, summary: { ...CLEAN_CTX.summary, unchecked: { objects: 7, kinds: ['A.x', 'B.x', 'C.x', 'D.x', 'E.x', 'F.x', 'G.x'] } } };
    expect(JSON.parse(json([], many)).summary.unchecked.message).toContain('(A.x, B.x, C.x, D.x, E.x, and 2 more)');
  });
});
