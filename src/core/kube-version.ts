/** A Kubernetes minor version, e.g. 1.36. */
export interface KubeVersion {
  readonly major: number;
  readonly minor: number;
}

/** The version simulated when none is given: the newest release crdx knows. The one place it is written. */
export const DEFAULT_KUBE_VERSION: KubeVersion = { major: 1, minor: 37 };
/**
 * The newest version simulated when asked for (`--kube-version`): may run ahead of the default
 * while a release's behaviours are being completed.
 */
export const NEWEST_KUBE_VERSION: KubeVersion = { major: 1, minor: 37 };
/** The oldest version simulated: apiextensions.k8s.io/v1 came with 1.16. */
export const MIN_KUBE_VERSION: KubeVersion = { major: 1, minor: 16 };

export function parseKubeVersion(s: string): KubeVersion | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(s.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** true when v >= 1.minor */
export function atLeast(v: KubeVersion, minor: number): boolean {
  return v.major > 1 || (v.major === 1 && v.minor >= minor);
}

/** Whether crdx simulates this version: 1.16 to the newest (a later one is not simulated). */
export function isSimulated(v: KubeVersion): boolean {
  const newest = Math.max(DEFAULT_KUBE_VERSION.minor, NEWEST_KUBE_VERSION.minor);
  return v.major === 1 && atLeast(v, MIN_KUBE_VERSION.minor) && !atLeast(v, newest + 1);
}

/**
 * The minor version the server's version gates compare against (validation of formats, finalizer
 * warnings, defaults): 1.<minor>, and any later major as after every 1.x release.
 */
export function kubeMinor(v: KubeVersion): number {
  return v.major > 1 ? 99 : v.minor;
}

export function formatKubeVersion(v: KubeVersion): string {
  return `${v.major}.${v.minor}`;
}

/** The simulated range in words, for messages that refuse a version outside it. */
export function simulatedRange(): string {
  const newest = NEWEST_KUBE_VERSION.minor > DEFAULT_KUBE_VERSION.minor ? NEWEST_KUBE_VERSION : DEFAULT_KUBE_VERSION;
  return `${formatKubeVersion(MIN_KUBE_VERSION)} (apiextensions.k8s.io/v1) to ${formatKubeVersion(newest)}`;
}
