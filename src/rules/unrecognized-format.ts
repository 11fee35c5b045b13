import { kubeMinor } from '../core/kube-version.js';
import { gated, since } from '../core/version-gates.js';
import { sType } from '../schema/raw.js';
import { visitSchema } from '../schema/visit.js';
import type { JsonPath } from '../core/types.js';
import type { Crd } from '../crd/model.js';
import { defineRule } from './types.js';

const STRING_FORMATS = [
  'bsonobjectid', 'uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4', 'uuid5',
  'isbn', 'isbn10', 'isbn13', 'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'byte', 'password', 'date', 'duration', 'datetime',
];
const norm = (f: string) => f.replace(/-/g, '').toLowerCase();

/**
 * Whether the API server (of that version) warns about a format on a node of that type. The known
 * formats are those of its compatibility version (minor - 1): a 1.34 server does not know the k8s names yet.
 */
function formatWarns(format: string, type: string, kubeMinor: number): boolean {
  if (kubeMinor < since('crd.unrecognized-format')) return false;
  const known = new Set(STRING_FORMATS.map(norm));
  if (kubeMinor - 1 >= since('formats.k8s-names')) {
    known.add('k8sshortname');
    known.add('k8slongname');
  }
  const f = norm(format);
  // strings only before typed formats
  if (kubeMinor < since('crd.unrecognized-format-typed')) return type === 'string' && !known.has(f);
  if (type === '' || type === 'string') return !known.has(f);
  if (type === 'integer') return f !== 'int32' && f !== 'int64';
  if (type === 'number') return f !== 'float' && f !== 'double';
  return true;
}

export const unrecognizedFormat = defineRule({
  id: 'unrecognized-format',
  meta: {
    type: 'suggestion',
    serverFaithful: true,
    defaultSeverity: 'warning',
    docs: {
      description: 'The server warns about formats it does not know; they are ignored when objects are validated.',
      details:
        'Since 1.34 the API server returns `unrecognized format "<f>"` warnings on create. From 1.36 string (or untyped) fields must use a supported string format, integers int32/int64, numbers float/double; any format on other types warns. An unknown format validates nothing, which is rarely what the author meant.',
      reference: 'k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go: strategy.WarningsOnCreate, getUnrecognizedFormatsInSchema; k8s.io/apiextensions-apiserver pkg/apiserver/validation/formats.go: GetUnrecognizedFormats',
    },
    messages: { unrecognized: 'unrecognized format "{{format}}" (type "{{type}}"): the server warns and does not validate it' },
  },
  *check({ crd, update }) {
    if (!gated(crd.kube, 'crd.unrecognized-format')) return;
    // an update warns only about formats the installed CRD does not already use unrecognized (WarningsOnUpdate)
    const known = new Set(update ? [...unrecognized(update.old.crd)].map(([f]) => f) : []);
    for (const [f, type, at] of unrecognized(crd))
      if (!known.has(f)) yield { messageId: 'unrecognized', data: { format: f, type }, path: at };
  },
});

function* unrecognized(crd: Crd): Iterable<[string, string, JsonPath]> {
  for (const t of crd.schemas)
    for (const [s, loc] of visitSchema(t.schema, t.loc)) {
      const f = s['format'];
      if (typeof f === 'string' && f !== '' && formatWarns(f, sType(s), kubeMinor(crd.kube))) yield [f, sType(s), [...loc.at, 'format']];
    }
}
