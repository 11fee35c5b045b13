// Loaded before every test file. (The CEL engine is not loaded here: a test that needs it passes
// it explicitly, test/helpers/cel.ts, as the CLI does.)

// The CLI's code cache (bin/kubectl-crdx): a run whose Node does not accept the cache the build
// shipped writes one to the user's cache directory; tests keep it out of the home directory.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env['CRDX_CACHE_DIR'] ??= join(tmpdir(), 'crdx-test-v8cache');
