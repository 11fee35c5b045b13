/**
 * The worker thread of a parallel lint (lint-parallel.ts): lints its share of the files and posts the
 * result back. A separate entry of the bundle (dist/engine/lint-worker.js).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ensureCelParserFor } from '../schema/cel-syntax.js';
import { lintShare, type ShareRequest } from './lint-parallel.js';

const req = workerData as ShareRequest;
await ensureCelParserFor([...req.files, ...(req.opts.crdFiles ?? [])]);
parentPort!.postMessage(lintShare(req));
