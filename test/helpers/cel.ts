/**
 * The CEL engine for tests that build CRDs or run engines: the CLI loads it only when an input may
 * hold rules (src/schema/cel-syntax.ts celFor) and passes it down; tests pass this one explicitly.
 */
import { loadCel } from '../../src/schema/cel-syntax.js';

export const cel = await loadCel();
