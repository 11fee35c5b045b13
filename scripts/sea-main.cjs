// The main script of the single executable (npm run package; bundled by scripts/build.mjs --sea,
// with bin/load-bundle.cjs inside). The CLI bundle is an asset of the executable (cli.cjs), compiled
// with V8's code cache of the user's cache directory, as bin/kubectl-crdx does: a main script is
// compiled from source at every start, and the archive ships no cache (V8's is not reproducible).
'use strict';
const { getAsset } = require('node:sea');
const { bundleText, runBundle } = require('../bin/load-bundle.cjs');

runBundle({ source: bundleText(Buffer.from(getAsset('cli.cjs'))), filename: __filename, dirname: __dirname, kind: 'sea-', require });
