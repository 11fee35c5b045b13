import { invalid, required } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { rec, str } from '../crd/json.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';

const KEY = 'api-approved.kubernetes.io';

function isProtectedGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

function isUrlWithHost(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol !== '' && u.host !== '';
  } catch {
    return false;
  }
}

/** apihelpers.GetAPIApprovalState, the state only. */
function approvalState(v: string): 'missing' | 'bypassed' | 'approved' | 'invalid' {
  if (v === '') return 'missing';
  if (v.startsWith('unapproved')) return 'bypassed';
  return isUrlWithHost(v) ? 'approved' : 'invalid';
}

export const apiApproval = defineRule({
  id: 'api-approval',
  meta: serverMeta({
    docs: {
      description: 'CRDs in *.k8s.io and *.kubernetes.io groups need the api-approved.kubernetes.io annotation.',
      details:
        'Protected groups must carry the approval annotation with either a URL (the API review) or a reason starting with "unapproved".',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateAPIApproval; k8s.io/apiextensions-apiserver pkg/apihelpers/helpers.go: IsProtectedCommunityGroup, GetAPIApprovalState',
    },
  }),
  *check({ crd, update }) {
    if (crd.requestVersion !== 'v1' || !isProtectedGroup(crd.group)) return;
    const ann = rec(rec(crd.manifest.value['metadata'])?.['annotations']);
    const v = str(ann?.[KEY]);
    // an update that keeps the installed approval state is never refused over it
    if (update && approvalState(str(rec(rec(update.old.crd.manifest.value['metadata'])?.['annotations'])?.[KEY])) === approvalState(v)) return;
    const loc = new Loc(`metadata.annotations[${KEY}]`, ['metadata', 'annotations', KEY]);
    if (v === '') {
      yield serverReport(
        required(
          ann ? loc : loc.withAt(['metadata']),
          `protected groups must have approval annotation "${KEY}", see https://github.com/kubernetes/enhancements/pull/1111`,
        ),
      );
    } else if (!v.startsWith('unapproved') && !isUrlWithHost(v)) {
      yield serverReport(
        invalid(
          loc,
          v,
          `protected groups must have approval annotation "${KEY}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
        ),
      );
    }
  },
});
