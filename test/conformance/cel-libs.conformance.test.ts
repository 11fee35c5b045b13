/**
 * The CEL libraries crdx evaluates (src/schema/cel/), replayed on a real apiextensions-apiserver:
 * for each library a CRD whose rules use it, and objects that pass and fail them, sent as dry-run
 * creates. crdx must evaluate every rule (no cel-not-evaluated) and its causes must be the server's,
 * all of them, exactly (the server's answer is the expectation: nothing here is hand-written).
 */
import { describe } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { goAvailable } from './harness.js';
import { LIBS } from './cel-libs.cases.js';
import { replayLibraries } from './cel-libs.replay.js';

const HAVE_GO = goAvailable();

describe.skipIf(!HAVE_GO)('CEL libraries agree with a real apiextensions-apiserver', () => {
  replayLibraries({ suite: 'cel-libs', libs: LIBS, kube: DEFAULT_KUBE_VERSION });
});
