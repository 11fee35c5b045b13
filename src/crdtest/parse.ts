/**
 * A test file (`*.crdx-test.yaml`) read into the model of ./types.ts, every part with its
 * position; anything malformed is a positioned error (the file is then not run). Pure.
 */
import { formatKubeVersion, isSimulated, parseKubeVersion, simulatedRange } from '../core/kube-version.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { parseFile, type Manifest, type SourceFile } from '../manifest/parse.js';
import { OPERATIONS, type CrdSource, type ExpectedCause, type ExpectedWarnings, type Expectations, type ObjectSource, type Operation, type TestCase, type TestFile, type TestFileError } from './types.js';

const FILE_KEYS = ['crds', 'cases'];
const CASE_KEYS = ['name', 'object', 'oldObject', 'operation', 'replicas', 'kubeVersion', 'fieldValidation', 'allowed', 'denied', 'warnings', 'result'];
const CAUSE_KEYS = ['field', 'type', 'reason', 'message', 'messageContains'];

class Problem extends Error {
  constructor(
    readonly at: JsonPath,
    message: string,
    readonly where: 'key' | 'value' = 'value',
  ) {
    super(message);
  }
}

function what(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (isRecord(v)) return 'a mapping';
  return `${typeof v === 'string' ? 'a string' : typeof v === 'number' || typeof v === 'bigint' ? 'a number' : typeof v === 'boolean' ? 'a boolean' : typeof v}`;
}

function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], at: JsonPath, name: string): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) throw new Problem([...at, k], `unknown key "${k}" in ${name} (allowed: ${allowed.join(', ')})`, 'key');
}

function str(v: unknown, at: JsonPath, name: string): string {
  if (typeof v !== 'string') throw new Problem(at, `${name} must be a string, not ${what(v)}`);
  return v;
}

/** Reads one test file; `errors` is non-empty when it cannot be run. */
export function parseTestFile(source: SourceFile): { file?: TestFile; errors: TestFileError[] } {
  const docs = parseFile(source).filter((d) => !d.empty || d.problems.length > 0);
  const errors: TestFileError[] = [];
  for (const d of docs)
    for (const p of d.problems) {
      // lint skips a list document (a Kustomize patch) with a note; a test file must be a mapping
      const message = p.code === 'not-an-object' && p.severity === 'info' ? 'a test file is a mapping with crds and cases, not a list' : p.message;
      errors.push({ file: source.path, line: p.position.line, column: p.position.column, message });
    }
  if (errors.length > 0) return { errors };
  if (docs.length !== 1 || docs[0]!.manifests.length !== 1) {
    const second = docs[1]?.manifests[0]?.locate([]) ?? { line: 1, column: 1 };
    return { errors: [{ file: source.path, line: second.line, column: second.column, message: docs.length === 0 ? 'empty test file: expected a mapping with crds and cases' : 'a test file is one YAML document (a mapping with crds and cases)' }] };
  }
  const m = docs[0]!.manifests[0]!;
  try {
    return { file: readModel(m, source.path), errors: [] };
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    const pos = m.locate(e.at, e.where);
    return { errors: [{ file: source.path, line: pos.line, column: pos.column, message: e.message }] };
  }
}

function readModel(m: Manifest, file: string): TestFile {
  const top = m.value;
  onlyKeys(top, FILE_KEYS, [], 'a test file');
  const crdsRaw = top['crds'];
  if (!Array.isArray(crdsRaw) || crdsRaw.length === 0) throw new Problem(crdsRaw === undefined ? [] : ['crds'], 'crds must be a non-empty list of paths, globs or inline CustomResourceDefinitions');
  const crds: CrdSource[] = crdsRaw.map((c, i) => {
    const at = ['crds', i];
    if (typeof c === 'string') return { inline: false, pattern: c, path: at };
    if (isRecord(c)) {
      if (c['kind'] !== 'CustomResourceDefinition') throw new Problem(at, 'an inline entry of crds must be a CustomResourceDefinition');
      return { inline: true, value: c, path: at };
    }
    throw new Problem(at, `an entry of crds must be a path, a glob or a CustomResourceDefinition, not ${what(c)}`);
  });
  const casesRaw = top['cases'];
  if (!Array.isArray(casesRaw) || casesRaw.length === 0) throw new Problem(casesRaw === undefined ? [] : ['cases'], 'cases must be a non-empty list');
  const names = new Set<string>();
  const cases = casesRaw.map((c, i) => {
    const tc = readCase(c, i, m);
    if (names.has(tc.name)) throw new Problem([...tc.path, 'name'], `duplicate case name "${tc.name}"`);
    names.add(tc.name);
    return tc;
  });
  return { file, root: m, crds, cases };
}

function objectSource(v: unknown, at: JsonPath, name: string): ObjectSource {
  if (typeof v === 'string') return { inline: false, file: v, path: at };
  if (isRecord(v)) return { inline: true, value: v, path: at };
  throw new Problem(at, `${name} must be an object or a path to a YAML file, not ${what(v)}`);
}

function readCase(c: unknown, i: number, m: Manifest): TestCase {
  const at: JsonPath = ['cases', i];
  if (!isRecord(c)) throw new Problem(at, `a case must be a mapping, not ${what(c)}`);
  onlyKeys(c, CASE_KEYS, at, 'a case');
  if (c['name'] === undefined) throw new Problem(at, 'a case needs a name', 'key');
  const name = str(c['name'], [...at, 'name'], 'name');
  if (c['object'] === undefined) throw new Problem(at, `case "${name}" needs an object`, 'key');
  const object = objectSource(c['object'], [...at, 'object'], 'object');
  const oldObject = c['oldObject'] === undefined ? undefined : objectSource(c['oldObject'], [...at, 'oldObject'], 'oldObject');
  let operation: Operation = oldObject ? 'update' : 'create';
  if (c['operation'] !== undefined) {
    const op = str(c['operation'], [...at, 'operation'], 'operation');
    if (!(OPERATIONS as readonly string[]).includes(op)) throw new Problem([...at, 'operation'], `operation must be one of ${OPERATIONS.join(', ')}`);
    operation = op as Operation;
  }
  if (operation === 'update' && !oldObject) throw new Problem([...at, 'operation'], 'an update needs an oldObject');
  if (operation === 'create' && oldObject) throw new Problem([...at, 'oldObject'], 'a create has no oldObject (give operation: update, or leave out oldObject)', 'key');
  if ((operation === 'scale-get' || operation === 'scale-update') && oldObject) throw new Problem([...at, 'oldObject'], `${operation} works on the object as created: no oldObject`, 'key');
  let replicas: number | undefined;
  if (operation === 'scale-update') {
    const r = c['replicas'];
    if (typeof r !== 'number' || !Number.isInteger(r) || r < -2147483648 || r > 2147483647) throw new Problem(r === undefined ? at : [...at, 'replicas'], 'scale-update needs replicas: an int32', r === undefined ? 'key' : 'value');
    replicas = r;
  } else if (c['replicas'] !== undefined) throw new Problem([...at, 'replicas'], 'replicas is for operation: scale-update', 'key');
  let kubeVersion;
  if (c['kubeVersion'] !== undefined) {
    const raw = c['kubeVersion'];
    if (typeof raw === 'number') throw new Problem([...at, 'kubeVersion'], `kubeVersion must be quoted ("1.30" as a number reads as 1.3)`);
    kubeVersion = parseKubeVersion(str(raw, [...at, 'kubeVersion'], 'kubeVersion'));
    if (!kubeVersion) throw new Problem([...at, 'kubeVersion'], 'kubeVersion must be a quoted "1.MINOR"');
    if (!isSimulated(kubeVersion)) throw new Problem([...at, 'kubeVersion'], `kubeVersion ${formatKubeVersion(kubeVersion)} is not simulated: supported ${simulatedRange()}`);
  }
  const fv = c['fieldValidation'];
  if (fv !== undefined && fv !== 'Strict' && fv !== 'Warn' && fv !== 'Ignore')
    throw new Problem([...at, 'fieldValidation'], 'fieldValidation must be Strict, Warn or Ignore (the request\'s fieldValidation, as kubectl\'s --validate=strict|warn|ignore sends it)');
  return {
    index: i,
    name,
    path: at,
    position: m.locate(at),
    operation,
    object,
    ...(oldObject ? { oldObject } : {}),
    ...(replicas !== undefined ? { replicas } : {}),
    ...(kubeVersion ? { kubeVersion } : {}),
    ...(fv === 'Strict' || fv === 'Warn' || fv === 'Ignore' ? { fieldValidation: fv } : {}),
    expect: readExpectations(c, at, name),
  };
}

function readExpectations(c: Record<string, unknown>, at: JsonPath, name: string): Expectations {
  const allowed = c['allowed'];
  const denied = c['denied'];
  if (allowed !== undefined && denied !== undefined) throw new Problem([...at, 'denied'], 'a case is either allowed or denied', 'key');
  if (allowed === undefined && denied === undefined) throw new Problem(at, `case "${name}" needs allowed: true or denied: [causes]`, 'key');
  if (allowed !== undefined && allowed !== true) throw new Problem([...at, 'allowed'], 'allowed must be true (for a denial, list the causes under denied)');
  let causes: ExpectedCause[] | undefined;
  if (denied !== undefined) {
    if (!Array.isArray(denied) || denied.length === 0) throw new Problem([...at, 'denied'], 'denied must be a non-empty list of causes (field, type or reason, message or messageContains)');
    causes = denied.map((d, j) => readCause(d, [...at, 'denied', j]));
  }
  let warnings: ExpectedWarnings | undefined;
  const w = c['warnings'];
  if (w !== undefined) {
    const wat = [...at, 'warnings'];
    if (Array.isArray(w)) warnings = { exact: w.map((x, j) => str(x, [...wat, j], 'a warning')) };
    else if (isRecord(w)) {
      onlyKeys(w, ['contains'], wat, 'warnings');
      const cs = w['contains'];
      if (!Array.isArray(cs)) throw new Problem(wat, 'warnings.contains must be a list of texts');
      warnings = { contains: cs.map((x, j) => str(x, [...wat, 'contains', j], 'a warning')) };
    } else throw new Problem(wat, 'warnings must be a list (the exact warnings) or {contains: [texts]}');
  }
  if (c['result'] !== undefined && denied !== undefined) throw new Problem([...at, 'result'], 'a denied case has no result', 'key');
  return {
    ...(allowed === true ? { allowed: true as const } : {}),
    ...(causes ? { denied: causes } : {}),
    ...(warnings ? { warnings } : {}),
    ...(c['result'] !== undefined ? { result: c['result'] } : {}),
  };
}

function readCause(d: unknown, at: JsonPath): ExpectedCause {
  if (!isRecord(d)) throw new Problem(at, `a cause must be a mapping (field, type or reason, message or messageContains), not ${what(d)}`);
  onlyKeys(d, CAUSE_KEYS, at, 'a cause');
  const get = (k: string) => (d[k] === undefined ? undefined : str(d[k], [...at, k], k));
  const cause = { field: get('field'), type: get('type'), reason: get('reason'), message: get('message'), messageContains: get('messageContains') };
  if (cause.message !== undefined && cause.messageContains !== undefined) throw new Problem([...at, 'messageContains'], 'give message or messageContains, not both', 'key');
  if (Object.values(cause).every((v) => v === undefined)) throw new Problem(at, 'a cause needs at least one of field, type, reason, message, messageContains');
  const out: { -readonly [K in keyof ExpectedCause]: ExpectedCause[K] } = { path: at };
  for (const [k, v] of Object.entries(cause)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
