/** The part of a cel-js Environment the libraries use. */
export interface LibEnv {
  registerFunction(signature: string, handler: (...args: never[]) => unknown): unknown;
}
