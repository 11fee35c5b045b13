/**
 * The CEL libraries crdx evaluates (src/schema/cel/), replayed on a real apiextensions-apiserver:
 * for each library a CRD whose rules use it, and objects that pass and fail them, sent as dry-run
 * creates. crdx must evaluate every rule (no cel-not-evaluated) and its causes must be the server's,
 * all of them, exactly (the server's answer is the expectation: nothing here is hand-written).
 */
import { describe } from 'vitest';
import type { KubeVersion } from '../../src/core/kube-version.js';
import { defaultMinor, goAvailable } from './harness.js';
import { LIBS } from './cel-libs.cases.js';
import { replayLibraries } from './cel-libs.replay.js';

const HAVE_GO = goAvailable();
// CRDX_CEL_LIBS_MINOR=36 replays the same cases on the 1.36 server (crdx simulating 1.36)
const MINOR = Number(process.env['CRDX_CEL_LIBS_MINOR'] ?? defaultMinor());
const KUBE: KubeVersion = { major: 1, minor: MINOR };

describe.skipIf(!HAVE_GO)('CEL libraries agree with a real apiextensions-apiserver', () => {
  replayLibraries({ suite: 'cel-libs', libs: LIBS, kube: KUBE, server: MINOR === defaultMinor() ? {} : { minor: MINOR }, tallyPrefix: `1.${MINOR} ` });
});
