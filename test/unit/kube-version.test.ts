/** The Kubernetes version: parsed once, its default and range in one place, one derived minor for the version gates. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION, MIN_KUBE_VERSION, NEWEST_KUBE_VERSION, formatKubeVersion, isSimulated, kubeMinor, parseKubeVersion } from '../../src/core/kube-version.js';

describe('kube-version', () => {
  it('parses MAJOR.MINOR with an optional v and patch', () => {
    expect(parseKubeVersion('1.30')).toEqual({ major: 1, minor: 30 });
    expect(parseKubeVersion(' v1.29.4 ')).toEqual({ major: 1, minor: 29 });
    expect(parseKubeVersion('1')).toBeUndefined();
    expect(parseKubeVersion('1.x')).toBeUndefined();
  });

  it('simulates 1.16 to the default, nothing else', () => {
    expect(formatKubeVersion(MIN_KUBE_VERSION)).toBe('1.16');
    expect(isSimulated(MIN_KUBE_VERSION)).toBe(true);
    expect(isSimulated(DEFAULT_KUBE_VERSION)).toBe(true);
    expect(isSimulated({ major: 1, minor: 15 })).toBe(false);
    expect(isSimulated(NEWEST_KUBE_VERSION)).toBe(true);
    expect(isSimulated({ major: 1, minor: Math.max(DEFAULT_KUBE_VERSION.minor, NEWEST_KUBE_VERSION.minor) + 1 })).toBe(false);
    expect(isSimulated({ major: 2, minor: 0 })).toBe(false);
  });

  it('gives the version gates 1.<minor>, and a later major as after every 1.x', () => {
    expect(kubeMinor({ major: 1, minor: 29 })).toBe(29);
    expect(kubeMinor(DEFAULT_KUBE_VERSION)).toBe(DEFAULT_KUBE_VERSION.minor);
    expect(kubeMinor({ major: 2, minor: 0 })).toBeGreaterThan(DEFAULT_KUBE_VERSION.minor);
  });
});
