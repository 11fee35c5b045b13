/** Durations as kubectl reads them (--request-timeout). Pure. */
import { parseDuration } from '../go/duration.js';

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
  if (s === '') return 'expected a duration such as 10s, 1m or 500ms';
  // strconv.ParseInt failed above: kubectl reads time.ParseDuration
  const ns = parseDuration(s);
  if (ns === undefined) return 'expected a duration such as 10s, 1m or 500ms';
  const total = Number(ns) / 1e6;
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
