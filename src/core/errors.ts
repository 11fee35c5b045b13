/** The few typed failures; all of them exit with code 2. Findings are never thrown. */
type CrdxErrorCode =
  | 'usage'
  | 'file-not-found'
  | 'unreadable'
  | 'no-crd-found'
  | 'version-not-served'
  | 'crd-rejected'
  | 'no-input'
  | 'no-old-object'
  | 'cluster'
  | 'internal';

export abstract class CrdxError extends Error {
  abstract readonly code: CrdxErrorCode;
  readonly exitCode = 2 as const;
}

export class UsageError extends CrdxError {
  readonly code = 'usage' as const;
}

export class InputError extends CrdxError {
  constructor(
    readonly code: Exclude<CrdxErrorCode, 'usage' | 'internal' | 'cluster'>,
    message: string,
  ) {
    super(message);
  }
}

/** A live cluster could not be read: kubeconfig, connection, TLS, authorization, a missing object. One line. */
export class ClusterError extends CrdxError {
  readonly code = 'cluster' as const;
}

export class InternalError extends CrdxError {
  readonly code = 'internal' as const;
}

export const enum ExitCode {
  Ok = 0,
  Findings = 1,
  Failure = 2,
}
