/**
 * The worker thread of a parallel lint (lint-parallel.ts): lints its share of the files and posts the
 * result back. A separate entry of the bundle (dist/engine/lint-worker.js).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { celFor, loadCel } from '../schema/cel-syntax.js';
import { lintShare, type ShareRequest } from './lint-parallel.js';

const req = workerData as ShareRequest;
// the CEL engine cannot cross threads: the worker loads its own when its files may hold rules
const cel = await celFor([...req.files, ...(req.opts.crdFiles ?? [])], loadCel);
parentPort!.postMessage(lintShare(req, cel));
