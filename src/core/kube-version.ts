/** A Kubernetes minor version, e.g. 1.36. */
export interface KubeVersion {
  readonly major: number;
  readonly minor: number;
}

export const DEFAULT_KUBE_VERSION: KubeVersion = { major: 1, minor: 36 };
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

export function formatKubeVersion(v: KubeVersion): string {
  return `${v.major}.${v.minor}`;
}
