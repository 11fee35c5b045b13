/**
 * CEL syntax checking of x-kubernetes-validations rules. The CEL parser is loaded lazily (it costs
 * ~60 ms at start-up) and only when an input has rules: `ensureCelParser()` before linting; until
 * it is loaded, syntax is not checked. Type checking against the schema, the Kubernetes CEL
 * libraries and cost estimation are not reproduced.
 */
type Parse = (expr: string) => void;

let parse: Parse | undefined;
/** The loaded CEL module (Environment, Optional), for the evaluator (cel-eval.ts). */
let celModule: typeof import('@marcbachmann/cel-js') | undefined;

export async function ensureCelParser(): Promise<void> {
  if (parse) return;
  celModule = await import('@marcbachmann/cel-js');
  const { Environment } = celModule;
  // Kubernetes compiles with optional types enabled (self.?field, [?index])
  const env = new Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: true });
  parse = (expr) => {
    env.parse(expr);
  };
}

/** Loads the CEL module when one of the files may hold x-kubernetes-validations rules. */
export async function ensureCelParserFor(files: readonly { readonly text: string }[]): Promise<void> {
  if (files.some((f) => f.text.includes('x-kubernetes-validations'))) await ensureCelParser();
}

/** The CEL module once ensureCelParser() has loaded it. */
export function loadedCelModule(): typeof import('@marcbachmann/cel-js') | undefined {
  return celModule;
}

export function celParserLoaded(): boolean {
  return parse !== undefined;
}

/** The syntax error of a CEL expression (first line of the parser's message), or undefined. */
export function celSyntaxError(expr: string): string | undefined {
  if (!parse) return undefined;
  try {
    parse(expr);
    return undefined;
  } catch (e) {
    return String((e as Error).message ?? e).split('\n')[0];
  }
}
