/** The --crd verdicts kept between runs (src/cli/verdict-cache.ts, src/engine/crd-verdict.ts). */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { verdictStore } from '../../src/cli/verdict-cache.js';
import { memoryVerdicts, type StoredVerdict, type VerdictStore } from '../../src/engine/crd-verdict.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';
import { widgetsCrd } from '../helpers/crd.js';

const io = (dir: string, id = 'abc123', env: Record<string, string> = {}): Io => ({
  stdout: { write: () => true },
  stderr: { write: () => true },
  readStdin: async () => '',
  cwd: dir,
  env,
  cache: { id, dir: () => dir },
});
const crd = widgetsCrd({ schema: 'type: object\nproperties:\n  spec:\n    type: object\n    x-kubernetes-validations:\n    - rule: "self.nosuch > 1"\n' });
const cr = { path: 'cr.yaml', text: 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec: {}\n' };
const kube = { major: 1, minor: 37 };

describe('the file store', () => {
  it('keeps what a run learnt for the next run of the same build, mode 0600', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crdx-verdicts-'));
    const f = { path: 'a.yaml', text: 'x' };
    const v: StoredVerdict = { path: ['spec'], at: 'value', message: 'm', causes: 2, previous: { major: 1, minor: 36 } };
    const a = verdictStore(io(dir))!;
    expect(a.get(f, 'k')).toBeUndefined();
    a.set(f, 'k', v);
    a.set(f, 'served', null);
    a.save();
    const file = join(dir, 'verdicts-abc123.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = verdictStore(io(dir))!;
    expect(b.get(f, 'k')).toEqual(v);
    expect(b.get(f, 'served')).toBeNull();
    // another text of the file is another entry
    expect(b.get({ path: 'a.yaml', text: 'y' }, 'k')).toBeUndefined();
  });

  it('a new build removes the verdicts of the others; a damaged file is ignored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crdx-verdicts-'));
    writeFileSync(join(dir, 'verdicts-old.json'), '{}');
    writeFileSync(join(dir, 'verdicts-new.json'), '{"format":1,"entries":{"x":{"path":"not a list"}}');
    const s = verdictStore(io(dir, 'new'))!;
    const f = { path: 'a.yaml', text: 'x' };
    expect(s.get(f, 'k')).toBeUndefined();
    s.set(f, 'k', null);
    s.save();
    expect(readdirSync(dir).sort()).toEqual(['verdicts-new.json']);
    expect(JSON.parse(readFileSync(join(dir, 'verdicts-new.json'), 'utf8')).format).toBe(1);
  });

  it('nothing without the bin\'s build, or with CRDX_VERDICT_CACHE=0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crdx-verdicts-'));
    const { cache: _none, ...noBuild } = io(dir);
    expect(verdictStore(noBuild)).toBeUndefined();
    expect(verdictStore(io(dir, 'abc', { CRDX_VERDICT_CACHE: '0' }))).toBeUndefined();
  });

  it('a directory that cannot be written costs nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crdx-verdicts-'));
    writeFileSync(join(dir, 'file'), '');
    // below a regular file: no directory can be made there (ENOTDIR)
    const s = verdictStore(io(join(dir, 'file', 'cache')))!;
    s.set({ path: 'a', text: 'b' }, 'k', null);
    expect(() => s.save()).not.toThrow();
  });
});

describe('lint with a store', () => {
  const memory = (): VerdictStore & { entries: Map<string, StoredVerdict | null> } => {
    const entries = new Map<string, StoredVerdict | null>();
    return { entries, get: (f, k) => entries.get(`${f.text}|${k}`), set: (f, k, v) => void entries.set(`${f.text}|${k}`, v) };
  };

  it('an installed CRD\'s verdict is written once, then read: its first cause placed again by path', () => {
    const store = memory();
    const first = lintSources([cr], { kubeVersion: kube, cel, crdFiles: [{ path: 'crd.yaml', text: crd }], verdicts: store });
    expect(first.findings.map((f) => f.messageId)).toEqual(['crdRejected']);
    expect([...store.entries.values()].map((v) => v && { path: v.path.join('.'), causes: v.causes, previous: v.previous })).toEqual([
      { path: 'spec.versions.0.schema.openAPIV3Schema.properties.spec.x-kubernetes-validations.0.rule', causes: 1, previous: { major: 1, minor: 36 } },
    ]);
    // what the store says is what the run says (here, a verdict changed behind its back)
    const [k, v] = [...store.entries][0]!;
    store.entries.set(k, { ...v!, message: 'kept', causes: 3 });
    const again = lintSources([cr], { kubeVersion: kube, cel, crdFiles: [{ path: 'crd.yaml', text: crd }], verdicts: store });
    expect(again.findings[0]!.message).toMatch(/crd\.yaml:\d+:\d+: kept \(and 2 more causes\)$/);
    expect(again.findings[0]!.line).toBe(first.findings[0]!.line);
  });

  it('a CRD of the input is checked in full, never read from the store', () => {
    const store = memory();
    lintSources([{ path: 'all.yaml', text: `${crd}---\n${cr.text}` }], { kubeVersion: kube, cel, verdicts: store });
    expect(store.entries.size).toBe(0);
  });
});

describe('memoryVerdicts (the language server)', () => {
  it('keeps a verdict while the file\'s text is the same', () => {
    const s = memoryVerdicts();
    s.set({ path: 'a.yaml', text: 'x' }, 'k', null);
    expect(s.get({ path: 'a.yaml', text: 'x' }, 'k')).toBeNull();
    expect(s.get({ path: 'a.yaml', text: 'x2' }, 'k')).toBeUndefined();
    expect(s.get({ path: 'b.yaml', text: 'x' }, 'k')).toBeUndefined();
    expect(s.get({ path: 'a.yaml', text: 'x' }, 'other')).toBeUndefined();
  });
});
