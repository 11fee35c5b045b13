/**
 * The Kubernetes format library (apiserver pkg/cel/library/format.go): format.named(name), the
 * constant formats (format.dns1123Label() …), `validate` (an empty optional when the string is
 * valid, else the validator's messages), and equality by name. The validators are apimachinery's,
 * reused from crd/dns.ts, objectmeta/names.ts and formats/; the `uri` format's failure texts are Go's
 * url.ParseRequestURI errors, reproduced for the reasons url.ts words (others: not evaluated).
 */
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors } from '../../../crd/dns.js';
import { FORMAT_CHECKS } from '../../formats/index.js';
import { isRequestURI } from '../../formats/url.js';
import { isQualifiedName, isValidLabelValue } from '../../objectmeta/names.js';
import { GO_TYPE, type GoTypeNames } from './classes.js';
import { CelUnsupported } from './ops.js';
import { requestURIErrorOrUnworded } from './url.js';
import type { LibEnv } from './types.js';

export class FormatValue {
  get [GO_TYPE](): GoTypeNames {
    return { name: 'kubernetes.NamedFormat', go: 'cel.Format' };
  }

  constructor(
    readonly name: string,
    readonly validate: (s: string) => string[],
  ) {}
  celEqual(o: unknown): boolean {
    return o instanceof FormatValue && o.name === this.name;
  }
}

/** maskTrailingDash: a generateName prefix may end in '-'. */
const masked = (s: string): string => (s.length > 1 && s.endsWith('-') ? `${s.slice(0, -2)}a` : s);
const check = (name: string, msg: string) => (s: string): string[] => (FORMAT_CHECKS[name]!(s) ? [] : [msg]);

/** ConstantFormats, by the CEL function name after `format.`. */
export const FORMATS: ReadonlyMap<string, FormatValue> = new Map(
  (
    [
      ['dns1123Label', 'DNS1123Label', dns1123LabelErrors],
      ['dns1123Subdomain', 'DNS1123Subdomain', dns1123SubdomainErrors],
      ['dns1035Label', 'DNS1035Label', dns1035LabelErrors],
      ['qualifiedName', 'QualifiedName', isQualifiedName],
      ['dns1123LabelPrefix', 'DNS1123LabelPrefix', (s: string) => dns1123LabelErrors(masked(s))],
      ['dns1123SubdomainPrefix', 'DNS1123SubdomainPrefix', (s: string) => dns1123SubdomainErrors(masked(s))],
      ['dns1035LabelPrefix', 'DNS1035LabelPrefix', (s: string) => dns1035LabelErrors(masked(s))],
      ['labelValue', 'LabelValue', isValidLabelValue],
      [
        'uri',
        'URI',
        (s: string) => {
          if (isRequestURI(s)) return [];
          const err = requestURIErrorOrUnworded(s);
          if (err !== undefined && err !== null) return [err];
          throw new CelUnsupported(`format.uri().validate(${JSON.stringify(s)}) fails with a Go url.ParseRequestURI error text crdx does not reproduce`);
        },
      ],
      ['uuid', 'uuid', check('uuid', 'does not match the UUID format')],
      ['byte', 'byte', check('byte', 'invalid base64')],
      ['date', 'date', check('date', 'invalid date')],
      ['datetime', 'datetime', check('datetime', 'invalid datetime')],
    ] as const
  ).map(([fn, name, v]) => [fn, new FormatValue(name, v)]),
);

/** The functions called as `format.<name>(…)` (rewritten to `__crdx_format_<name>`: rewrite.ts). */
export const FORMAT_FUNCTIONS: ReadonlySet<string> = new Set(['named', ...FORMATS.keys()]);

interface OptionalCtor {
  of(v: unknown): unknown;
  none(): unknown;
}

export function registerFormat(env: LibEnv & { registerType(name: string, ctor: unknown): unknown }, optional: OptionalCtor): void {
  env.registerType('kubernetes.NamedFormat', FormatValue);
  env.registerFunction('__crdx_format_named(string): optional<kubernetes.NamedFormat>', (s: string) => {
    const f = FORMATS.get(s);
    return f ? optional.of(f) : optional.none();
  });
  for (const [fn, f] of FORMATS) env.registerFunction(`__crdx_format_${fn}(): kubernetes.NamedFormat`, () => f);
  env.registerFunction('kubernetes.NamedFormat.validate(string): optional<list<string>>', (f: FormatValue, s: string) => {
    const errs = f.validate(s);
    return errs.length === 0 ? optional.none() : optional.of(errs);
  });
}
