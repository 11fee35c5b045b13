import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { baselineFixedText, tooManyWarningsText, uncheckedText, updateSummaryText, type Finding, type Severity, type SuppressedFinding } from '../core/types.js';
import type { Formatter, FormatterContext, RuleDocs } from './types.js';

/** Where code scanning links the tool name to. */
const INFORMATION_URI = 'https://github.com/kubectl-crdx/kubectl-crdx';

/** The page of a rule at the release that produced the output. */
export function ruleHelpUri(id: string, version: string): string {
  return `${INFORMATION_URI}/blob/v${version}/docs/rules/${id}.md`;
}

/** Key of our entry in `partialFingerprints`; bump the suffix if the hash input ever changes. */
const FINGERPRINT_KEY = 'crdxFinding/v1';

interface Descriptor {
  readonly docs: RuleDocs;
  readonly full: string;
}

/** Rule docs for ids the engine emits itself rather than through a rule module. */
const BUILTIN_RULES: ReadonlyMap<string, Descriptor> = new Map([
  [
    'parse',
    {
      docs: { description: 'The input can be read and parsed as YAML or JSON.', serverFaithful: false },
      full: 'The input can be read and parsed as YAML or JSON. A file that cannot be read, or a document with a syntax error, is not checked any further.',
    },
  ],
  [
    'suppression',
    {
      docs: { description: 'Suppression comments name known rules, give a reason and cover a finding.', serverFaithful: false },
      full: 'A # crdx-disable or # crdx-disable-next-line comment must name known rules, give its reason after " -- ", and cover at least one finding of each rule it names.',
    },
  ],
]);

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

const WINDOWS_ABS = /^[A-Za-z]:\//;

function slashes(p: string): string {
  return p.replace(/\\/g, '/');
}

/**
 * The file as CI tools want it: relative to cwd when inside it, forward slashes,
 * no leading `./`; `-` (stdin) becomes `stdin`. Absolute paths outside cwd stay absolute.
 */
export function displayPath(file: string, cwd: string): string {
  if (file === '-') return 'stdin';
  const f = slashes(file);
  if (f.startsWith('/') || WINDOWS_ABS.test(f)) {
    const base = slashes(cwd).replace(/\/+$/, '');
    if (base !== '' && f.startsWith(`${base}/`)) return posix.normalize(f.slice(base.length + 1));
    return posix.normalize(f);
  }
  return posix.normalize(f);
}

/** A URI reference for `artifactLocation.uri`: relative paths stay relative, absolute ones become file: URIs. */
export function artifactUri(file: string, cwd: string): string {
  const p = displayPath(file, cwd);
  const encoded = p
    .split('/')
    .map((seg, i) => (i === 0 && WINDOWS_ABS.test(`${seg}/`) ? seg : encodeURIComponent(seg)))
    .join('/');
  if (p.startsWith('/')) return `file://${encoded}`;
  if (WINDOWS_ABS.test(p)) return `file:///${encoded}`;
  return encoded;
}

/** Stable across runs and line shifts: what the finding is about, not where it currently sits. */
function fingerprint(f: Finding, cwd: string): string {
  const who = f.object?.name !== undefined ? [f.object.apiVersion ?? '', f.object.kind ?? '', f.object.namespace ?? '', f.object.name] : [`doc ${f.document}`];
  return createHash('sha256')
    .update(JSON.stringify([f.ruleId, displayPath(f.file, cwd), ...who, f.path, f.message]))
    .digest('hex');
}

function describe(id: string, ctx: FormatterContext): Descriptor | undefined {
  const docs = ctx.rules.get(id);
  if (!docs) return BUILTIN_RULES.get(id);
  const why = docs.serverFaithful
    ? "This rule reproduces the Kubernetes API server's own verdict."
    : 'This rule is advice: the Kubernetes API server does not enforce it.';
  return { docs, full: `${docs.description} ${why}` };
}

function descriptor(id: string, ctx: FormatterContext): Record<string, unknown> {
  const d = describe(id, ctx);
  if (!d) return { id, shortDescription: { text: id } };
  const { docs, full } = d;
  return {
    id,
    shortDescription: { text: docs.description },
    fullDescription: { text: full },
    // the reserved parse "rule" has no page
    ...(BUILTIN_RULES.has(id) ? {} : { helpUri: ruleHelpUri(id, ctx.toolVersion) }),
    properties: { serverFaithful: docs.serverFaithful },
  };
}

function region(f: Finding): Record<string, number> {
  return {
    startLine: f.line,
    startColumn: f.column,
    ...(f.endLine !== undefined ? { endLine: f.endLine } : {}),
    ...(f.endColumn !== undefined ? { endColumn: f.endColumn } : {}),
  };
}

/** SARIF 2.1.0 in the subset GitHub code scanning accepts. */
export const sarif: Formatter = (findings, ctx) => {
  const suppressed = ctx.suppressed ?? [];
  const ids = [...new Set([...findings, ...suppressed].map((f) => f.ruleId))].sort();
  const index = new Map(ids.map((id, i) => [id, i]));
  const result = (f: Finding) => ({
    ruleId: f.ruleId,
    ruleIndex: index.get(f.ruleId)!,
    level: LEVEL[f.severity],
    message: { text: f.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUri(f.file, ctx.cwd) },
          region: region(f),
        },
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(f, ctx.cwd) },
    properties: {
      messageId: f.messageId,
      path: f.path,
      document: f.document,
      ...(f.server ? { server: f.server } : {}),
      ...(f.response ? { response: f.response } : {}),
      ...(f.aborted !== undefined ? { aborted: f.aborted } : {}),
    },
  });
  // suppressed findings are results too, with the comment's reason: code scanning shows them as suppressed
  const suppressedResult = (f: SuppressedFinding) => ({
    ...result(f),
    suppressions: f.suppressions.map((s) => ({
      kind: s.kind,
      ...(s.justification !== '' ? { justification: s.justification } : {}),
      location: { physicalLocation: { artifactLocation: { uri: artifactUri(f.file, ctx.cwd) }, region: { startLine: s.line, startColumn: s.column } } },
    })),
  });
  const results = [...findings.map(result), ...suppressed.map(suppressedResult)];
  const notifications = [
    ...(ctx.summary.tooManyWarnings ? [{ level: 'error', message: { text: tooManyWarningsText(ctx.summary.tooManyWarnings) } }] : []),
    ...(ctx.summary.unchecked ? [{ level: 'warning', message: { text: uncheckedText(ctx.summary.unchecked) } }] : []),
    ...(ctx.summary.baseline && ctx.summary.baseline.fixed > 0 ? [{ level: 'note', message: { text: baselineFixedText(ctx.summary.baseline) } }] : []),
    ...(ctx.summary.updates ?? []).map((u) => ({ level: u.accepted ? 'note' : 'error', message: { text: updateSummaryText(u) } })),
  ];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kubectl-crdx',
            version: ctx.toolVersion,
            informationUri: INFORMATION_URI,
            rules: ids.map((id) => descriptor(id, ctx)),
          },
        },
        columnKind: 'utf16CodeUnits',
        // a run that fails for its number of warnings says so (SARIF has no such result of its own),
        // and so does a baseline that holds findings that are gone
        ...(notifications.length > 0 ? { invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }] } : {}),
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
};
