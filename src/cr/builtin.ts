/**
 * Kinds that belong to the Kubernetes API itself (ConfigMap, Deployment, Role …), not to a CRD:
 * `default`, `status` and `scale` skip them with a note, as `lint` skips every object that no CRD of
 * its input defines. A CRD's group always has a dot, so a group without one (core "", apps, batch,
 * autoscaling, policy …) is built in; dotted built-in groups are listed (gateway.networking.k8s.io
 * and other `*.k8s.io` groups served through CRDs are not among them).
 */
const DOTTED_BUILTIN_GROUPS = new Set([
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

/** The API group of an apiVersion (`apps/v1` → apps, `v1` → ""). */
function groupOf(apiVersion: string): string {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** True for an object of a group the API server serves itself. */
export function isBuiltinApiVersion(apiVersion: string | undefined): boolean {
  if (apiVersion === undefined) return false;
  const g = groupOf(apiVersion);
  return !g.includes('.') || DOTTED_BUILTIN_GROUPS.has(g);
}
