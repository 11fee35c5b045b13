/**
 * The simulated Kubernetes version's library behaviours (cel-go 0.26 for 1.36, 0.29 for 1.37), read
 * by the library functions while a rule runs. The evaluator (cel-eval.ts) sets it before it runs
 * a node's rules; evaluation is synchronous, so no rule sees another version's setting.
 */
/** The list overload cel-go's checker resolved a sum() to (its zero and its element type), or 'dyn': several (dispatched at run time). */
export type SumKind = 'int' | 'uint' | 'double' | 'duration' | 'dyn';

/** What the sort-like calls of the running expression do (numbered as rewrite.ts numbers them). */
export interface ListerSites {
  /** The calls whose failing list argument is a panic. */
  readonly panics: ReadonlySet<number>;
  /** The sum() calls' overloads. */
  readonly sums: ReadonlyMap<number, SumKind>;
}

/** The library behaviours that follow the simulated version (cel-eval.ts runtimeFlags). */
export interface RuntimeFlags {
  /** 1.37 or later: indexOf/lastIndexOf with an empty search string (C7), lists.range limits (C8), cel-go 0.29's runtime costs. */
  readonly v137: boolean;
  /** Before 1.32 (cel-go < 0.22): indexOf/lastIndexOf with an offset at or past the end fail (later: -1). */
  readonly indexPastEndFails: boolean;
  /** Before 1.34 (cel-go < 0.26): lastIndexOf on an empty receiver fails (`index out of range: -1`; later: -1). */
  readonly emptyLastIndexOfFails: boolean;
  /** Before 1.33 (golang.org/x/text < 0.23): format()'s `%e` puts U+202F on each side of ×. */
  readonly sciSpaces: boolean;
}

/** Sets the running rule's library behaviours. */
export function setRuntimeFlags(f: RuntimeFlags): void {
  runtime.v137 = f.v137;
  runtime.indexPastEndFails = f.indexPastEndFails;
  runtime.emptyLastIndexOfFails = f.emptyLastIndexOfFails;
  runtime.sciSpaces = f.sciSpaces;
}

export const runtime = {
  /** See RuntimeFlags. */
  v137: false,
  indexPastEndFails: false,
  emptyLastIndexOfFails: false,
  sciSpaces: false,
  /**
   * A comprehension of the running rule iterated a map of two or more entries: the server iterates a
   * map in Go's random order, so which of two failing entries it reports is not known (env.ts).
   */
  mapIterated: false,
  /**
   * The texts of the errors comprehensions' elements of the running rule failed with (every
   * comprehension's): when each is the rule's own error, the order the entries were met in changes
   * nothing, and a map of several entries leaves the rule's error known (see mapIterated).
   */
  elementErrors: new Set<string>(),
  /**
   * The running expression's sort(), distinct() and sortBy() calls (numbered as rewrite.ts numbers
   * them) whose cost tracker the server runs, so that a failing list argument panics (the call has
   * one overload: a list of a concrete type); 'unknown': crdx could not tell which; undefined: none
   * (a failing argument stays the error it is). Set by the evaluator around each run.
   */
  panicking: undefined as ListerSites | 'unknown' | undefined,
  /** The static kind of the sum() whose receiver was just evaluated (__crdx_lister), read by sum(). */
  pendingSum: undefined as SumKind | 'unknown' | undefined,
};
