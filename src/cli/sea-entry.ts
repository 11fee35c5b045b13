// Entry of the Node single executable (npm run package): bundled to one CommonJS file, where
// top-level await is not available. In a single executable, argv[1] is the executable again.
import { runProcess } from './process.js';

void runProcess();
