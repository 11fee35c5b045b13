/**
 * The CEL engine, a value handed to whatever checks x-kubernetes-validations rules: syntax checking
 * (walk.ts, defaults.ts) and evaluation (cel-eval.ts). Nothing here is global: the CLI, the language
 * server and the lint worker load the engine (`loadCel`, ~60 ms, so only when an input may hold
 * rules: `celFor`) and pass it in (LintOptions.cel, DefaultOptions.cel, …, onto Crd.cel). Code that
 * meets a rule without an engine throws (core/cel-engine.ts `celMissing`): CEL is never skipped
 * silently. Type checking against the schema and static cost estimation are not reproduced here;
 * evaluation with the Kubernetes CEL libraries is cel-eval.ts and cel/.
 */
import type { CelEngine, CelLoader, CelModule } from '../core/cel-engine.js';
import { celModuleSync } from './cel-module-sync.js';

let loading: Promise<CelEngine> | undefined;

/**
 * Makes the engine (once per process). Where the build can reach the CEL module synchronously (the
 * CLI bundle: cel-module-sync.ts), the module is initialised when a rule first needs it; elsewhere it
 * is imported now.
 */
export const loadCel: CelLoader = () =>
  (loading ??= celModuleSync !== undefined ? Promise.resolve(engineOf(celModuleSync)) : import('@marcbachmann/cel-js').then((m) => engineOf(() => m)));

function engineOf(load: () => CelModule): CelEngine {
  let module: CelModule | undefined;
  const mod = (): CelModule => (module ??= load());
  let env: InstanceType<CelModule['Environment']> | undefined;
  // Kubernetes compiles with optional types enabled (self.?field, [?index])
  const parser = () => (env ??= new (mod().Environment)({ enableOptionalTypes: true, unlistedVariablesAreDyn: true }));
  // the schema analysis and the default check both ask about every rule
  const verdicts = new Map<string, string | undefined>();
  const check = (expr: string): string | undefined => {
    const p = parser();
    try {
      p.parse(expr);
      return undefined;
    } catch (e) {
      return String((e as Error).message ?? e).split('\n')[0];
    }
  };
  return {
    get module() {
      return mod();
    },
    syntaxError(expr) {
      if (verdicts.has(expr)) return verdicts.get(expr);
      const v = check(expr);
      // a long-lived engine (the language server) meets a new text at each keystroke in a rule
      if (verdicts.size >= 10_000) verdicts.clear();
      verdicts.set(expr, v);
      return v;
    },
  };
}

/**
 * Whether a file may hold x-kubernetes-validations rules: the key as written, or a quoted key with
 * escapes (JSON \u0078…, YAML \x78…, an escaped line break) that could spell it.
 */
export function mayHoldCelRules(text: string): boolean {
  return text.includes('x-kubernetes-validations') || /\\(?:[uUx]|\r?\n)/.test(text);
}

/** The engine when one of the files may hold rules (loaded then), else undefined: no rule can be met. */
export async function celFor(files: readonly { readonly text: string }[], load: CelLoader): Promise<CelEngine | undefined> {
  return files.some((f) => mayHoldCelRules(f.text)) ? load() : undefined;
}
