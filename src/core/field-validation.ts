/**
 * Server-side field validation (the `fieldValidation` query parameter of create and update, GA in
 * 1.27) and kubectl's `--validate` flag that chooses it.
 *
 * - Strict: unknown fields (and duplicate fields of the body) fail the request with 400 BadRequest,
 *   `<Kind> in version "<v>" cannot be handled as a <Kind>: strict decoding error: <entry>, <entry>`.
 * - Warn: one `Warning: 299` header per entry; the request goes on with the fields pruned. This is
 *   the server's default when the parameter is absent.
 * - Ignore: the fields are pruned silently.
 *
 * kubectl sends Strict by default (`--validate=strict`, also spelled `--validate=true` or a bare
 * `--validate`), Warn for `--validate=warn`, Ignore for `--validate=ignore` or `--validate=false`
 * (kubectl/pkg/cmd/util GetValidationDirective).
 */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** What kubectl sends when --validate is not given; crdx's commands use it too. */
export const KUBECTL_FIELD_VALIDATION: FieldValidation = 'Strict';

/** What the server does with a request that names no fieldValidation (the simulations' default). */
export const SERVER_FIELD_VALIDATION: FieldValidation = 'Warn';

/** kubectl's --validate value as the directive it sends; undefined for a value kubectl refuses. */
export function parseValidateFlag(v: string): FieldValidation | undefined {
  switch (v.toLowerCase()) {
    case 'strict':
    case 'true':
      return 'Strict';
    case 'warn':
      return 'Warn';
    case 'ignore':
    case 'false':
      return 'Ignore';
    default:
      return undefined;
  }
}

/** The server's text for one unknown field (pruning's path, inserted between the quotes as is). */
export function unknownFieldText(path: string): string {
  return `unknown field "${path}"`;
}

/** runtime.StrictDecodingError's text: its entries joined with ", ". */
export function strictDecodingText(entries: readonly string[]): string {
  return `strict decoding error: ${entries.join(', ')}`;
}

/** The 400 of a request body that cannot be decoded (handlers transformDecodeError). */
export function cannotBeHandled(kind: string, version: string, detail: string): string {
  return `${kind} in version "${version}" cannot be handled as a ${kind}: ${detail}`;
}
