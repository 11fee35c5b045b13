import { invalid, required } from '../core/field-error.js';
import { rec, str } from '../crd/json.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';

const TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

export const printerColumns = defineRule({
  id: 'printer-columns',
  meta: serverMeta({
    docs: {
      description: 'additionalPrinterColumns need a name, a known type and format, and a jsonPath starting with a dot.',
      details:
        'The server reports column paths under the legacy name JSONPath. Only the leading dot of the path is checked; see printer-column-jsonpath for paths kubectl cannot evaluate.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceColumnDefinition, validateSimpleJSONPath',
    },
  }),
  *check({ crd }) {
    for (const t of crd.columns) {
      for (let j = 0; j < t.value.length; j++) {
        const col = rec(t.value[j]) ?? {};
        const loc = t.loc.index(j);
        const at = (k: string, server = k) => (k in col ? loc.child(server, k) : loc.child(server, null));
        if (str(col['name']) === '') yield serverReport(required(at('name'), ''));
        const type = str(col['type']);
        if (type === '') yield serverReport(required(at('type'), `must be one of ${TYPES.join(',')}`));
        else if (!TYPES.includes(type)) yield serverReport(invalid(at('type'), type, `must be one of ${TYPES.join(',')}`));
        const format = str(col['format']);
        if (format !== '' && !FORMATS.includes(format)) yield serverReport(invalid(at('format'), format, `must be one of ${FORMATS.join(',')}`));
        const path = str(col['jsonPath']);
        if (path === '') yield serverReport(required(at('jsonPath', 'JSONPath'), ''));
        else if (!path.startsWith('.')) yield serverReport(invalid(at('jsonPath', 'JSONPath'), path, 'must be a simple json path starting with .'));
      }
    }
  },
});
