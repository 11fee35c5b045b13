/** Durations as kubectl reads them (--request-timeout). Pure. */

/**
 * --request-timeout, as kubectl reads it: a Go duration (`10s`, `1m30s`, `500ms`) or a bare number
 * of seconds. Unlike kubectl, 0 (no limit) is refused: a command of ours never waits without bound.
 */
export function parseRequestTimeout(v: string): number | string {
  const s = v.trim();
  if (/^\d+$/.test(s)) {
    const n = Number(s) * 1000;
    return n > 0 ? n : 'must be more than 0 (kubectl-crdx never waits without a bound)';
  }
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let pos = 0;
  let m: RegExpExecArray | null;
  if (s === '') return 'expected a duration such as 10s, 1m or 500ms';
  while ((m = re.exec(s)) !== null) {
    total += Number(m[1]) * unit[m[2]!]!;
    pos = re.lastIndex;
  }
  if (pos !== s.length) return 'expected a duration such as 10s, 1m or 500ms';
  if (total < 1) return 'must be at least 1ms (kubectl-crdx never waits without a bound)';
  if (total > 2_147_483_647) return 'must be at most 596h';
  return Math.round(total);
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
