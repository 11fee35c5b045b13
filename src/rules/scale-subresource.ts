import { invalid, required } from '../core/field-error.js';
import { rec, str } from '../crd/json.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';

/** validateSimpleJSONPath: a leading dot is the only syntax the server checks. */
function simplePath(p: string): boolean {
  return p.startsWith('.');
}

export const scaleSubresource = defineRule({
  id: 'scale-subresource',
  meta: serverMeta({
    docs: {
      description: 'The /scale subresource needs specReplicasPath under .spec and statusReplicasPath under .status.',
      details:
        'Both replica paths are required (statusReplicasPath too, unlike the design proposal); labelSelectorPath is optional and may sit under .spec or .status. Only the leading dot and the prefix are checked.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceDefinitionSubresources, validateSimpleJSONPath',
    },
  }),
  *check({ crd }) {
    for (const t of crd.subresources) {
      const scale = rec(t.value['scale']);
      if (!scale) continue;
      const loc = t.loc.child('scale');
      const spec = str(scale['specReplicasPath']);
      const status = str(scale['statusReplicasPath']);
      const sel = str(scale['labelSelectorPath']);
      const at = (k: string) => (k in scale ? loc.child(k) : loc.child(k).withAt(loc.at));
      if (spec === '') yield serverReport(required(at('specReplicasPath'), ''));
      else if (!simplePath(spec)) yield serverReport(invalid(at('specReplicasPath'), spec, 'must be a simple json path starting with .'));
      else if (!spec.startsWith('.spec.')) yield serverReport(invalid(at('specReplicasPath'), spec, 'should be a json path under .spec'));
      if (status === '') yield serverReport(required(at('statusReplicasPath'), ''));
      else if (!simplePath(status)) yield serverReport(invalid(at('statusReplicasPath'), status, 'must be a simple json path starting with .'));
      else if (!status.startsWith('.status.')) yield serverReport(invalid(at('statusReplicasPath'), status, 'should be a json path under .status'));
      if (sel !== '') {
        if (!simplePath(sel)) yield serverReport(invalid(at('labelSelectorPath'), sel, 'must be a simple json path starting with .'));
        else if (!sel.startsWith('.spec.') && !sel.startsWith('.status.')) // 1.15+: every simulated version
          yield serverReport(invalid(at('labelSelectorPath'), sel, 'should be a json path under either .spec or .status'));
      }
    }
  },
});
