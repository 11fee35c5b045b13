import { isPrint } from '../go/quote.js';
import { utf8Len } from '../go/strings.js';
import { invalid } from '../core/field-error.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';

function firstNonPrintable(s: string): number | undefined {
  let offset = 0;
  for (const ch of s) {
    if (!isPrint(ch)) return offset;
    offset += utf8Len(ch);
  }
  return undefined;
}

export const deprecationWarning = defineRule({
  id: 'deprecation-warning',
  meta: serverMeta({
    docs: {
      description: 'deprecationWarning is only for deprecated versions and must be a short printable line.',
      details: 'Set only with deprecated: true; at most 256 bytes; not empty; printable UTF-8 only.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionVersion, validateDeprecationWarning',
    },
  }),
  *check({ crd }) {
    for (const v of crd.versions) {
      if (!('deprecationWarning' in v.raw) || v.raw['deprecationWarning'] === null) continue;
      const w = String(v.raw['deprecationWarning'] ?? '');
      const loc = v.loc.child('deprecationWarning');
      if (v.raw['deprecated'] !== true) {
        yield serverReport(invalid(loc, w, 'can only be set for deprecated versions'));
        continue;
      }
      if (Buffer.byteLength(w, 'utf8') > 256) yield serverReport(invalid(loc, w, 'must be <= 256 characters long'));
      if (w.length === 0) yield serverReport(invalid(loc, w, 'must not be an empty string'));
      if (w.includes('\uFFFD')) yield serverReport(invalid(loc, w, 'must only contain printable UTF-8 characters'));
      const idx = firstNonPrintable(w);
      if (idx !== undefined) yield serverReport(invalid(loc, w, `must only contain printable UTF-8 characters; non-printable character found at index ${idx}`));
    }
  },
});
