// Loaded before every test file: the CEL parser is loaded lazily by the CLI; tests that call the
// engine directly get it here.
import { ensureCelParser } from '../../src/schema/cel-syntax.js';

await ensureCelParser();
