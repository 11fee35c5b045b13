// Loaded before every test file: the CEL parser is loaded lazily by the CLI; tests that call the
// engine directly get it here.
import { ensureCelParser } from '../../src/schema/cel-syntax.js';

await ensureCelParser();

// The CLI's code cache (bin/kubectl-crdx): a run whose Node does not accept the cache the build
// shipped writes one to the user's cache directory; tests keep it out of the home directory.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env['CRDX_CACHE_DIR'] ??= join(tmpdir(), 'crdx-test-v8cache');
