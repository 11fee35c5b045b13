/**
 * The verdicts of installed CRDs (--crd) kept between runs (src/engine/crd-verdict.ts), in the user's
 * cache directory beside V8's code cache: one file per build of crdx (`verdicts-<bundle>.json`; the
 * files of other builds are removed), mode 0600. An entry is keyed by the SHA-256 of the CRD file's
 * text and what else the verdict depends on; its first cause is kept by path, and placed again in the
 * file as it is read. Only the bin knows the build (the bundle's first line), so runs from sources
 * keep nothing. CRDX_VERDICT_CACHE=0: nothing is read or written. A file that cannot be read or
 * written only costs the time of checking those CRDs again.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../core/types.js';
import { makeDirs } from '../io/make-dirs.js';
import type { StoredVerdict, VerdictStore } from '../engine/crd-verdict.js';
import type { SourceFile } from '../manifest/parse.js';
import type { Io } from './io.js';

/** At most this many entries are kept (the most recently written). */
const MAX_ENTRIES = 2000;
const FORMAT = 1;

export interface SavedVerdicts extends VerdictStore {
  /** Writes the file when this run learnt a verdict. */
  save(): void;
}

export function verdictStore(io: Io): SavedVerdicts | undefined {
  const cache = io.cache;
  if (cache === undefined || io.env['CRDX_VERDICT_CACHE'] === '0') return undefined;
  const name = `verdicts-${cache.id}.json`;
  let dir: string | undefined;
  let entries: Map<string, StoredVerdict | null> | undefined;
  let learnt = false;
  const hashes = new WeakMap<SourceFile, string>();
  const load = (): Map<string, StoredVerdict | null> => {
    if (entries) return entries;
    entries = new Map();
    try {
      dir = cache.dir();
      const data: unknown = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      if (isRecord(data) && data['format'] === FORMAT && isRecord(data['entries']))
        for (const [k, v] of Object.entries(data['entries'])) if (v === null || isStoredVerdict(v)) entries.set(k, v);
    } catch {
      // none yet, or unreadable: every verdict is computed
    }
    return entries;
  };
  const keyOf = (f: SourceFile, key: string): string => {
    let h = hashes.get(f);
    if (h === undefined) {
      // the CLI bundle loads node:crypto here, on first use (scripts/build.mjs, lazyBuiltins)
      h = createHash('sha256').update(f.text).digest('hex');
      hashes.set(f, h);
    }
    return `${h}|${key}`;
  };
  return {
    get: (f, key) => load().get(keyOf(f, key)),
    set(f, key, v) {
      const m = load();
      const k = keyOf(f, key);
      m.delete(k);
      m.set(k, v);
      learnt = true;
    },
    save() {
      if (!learnt || entries === undefined) return;
      learnt = false;
      try {
        dir ??= cache.dir();
        const kept = [...entries].slice(-MAX_ENTRIES);
        makeDirs(dir);
        const file = join(dir, name);
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify({ format: FORMAT, entries: Object.fromEntries(kept) }), { mode: 0o600 });
        renameSync(tmp, file);
        // the verdicts of other builds are never read again
        for (const f of readdirSync(dir)) if (f.startsWith('verdicts-') && f.endsWith('.json') && f !== name) rmSync(join(dir, f), { force: true });
      } catch {
        // a cache directory that cannot be written: the next run checks these CRDs again
      }
    },
  };
}

function isStoredVerdict(v: unknown): v is StoredVerdict {
  if (!isRecord(v)) return false;
  const { path, at, message, causes, previous } = v;
  return (
    Array.isArray(path) &&
    path.every((p) => typeof p === 'string' || typeof p === 'number') &&
    (at === 'key' || at === 'value') &&
    typeof message === 'string' &&
    typeof causes === 'number' &&
    (previous === undefined || (isRecord(previous) && typeof previous['major'] === 'number' && typeof previous['minor'] === 'number'))
  );
}
