/**
 * A synchronous way to the CEL module, where a build has one. As written (the sources under test,
 * the split ESM build of the worker and the language server, the playground) there is none, and
 * src/schema/cel-syntax.ts imports the module with import() before any rule is met. The CLI bundle
 * (dist/cli/kubectl-crdx.cjs, lib/kubectl-crdx.cjs) replaces this module with one whose function is
 * a require() that esbuild resolves inside the bundle (scripts/build.mjs, `celModuleOnUse`): the
 * module then initialises on the first rule that needs it (an evaluation, or a syntax error crdx's
 * parser reports and cel-js is asked about), about 3 ms of a cold start a lint of a CRD without
 * such a rule no longer spends.
 */
import type { CelModule } from '../core/cel-engine.js';

export const celModuleSync: (() => CelModule) | undefined = undefined;
