/**
 * The worker thread of a parallel lint (lint-parallel.ts): lints its share of the files and posts the
 * result back. A separate entry of the bundle (dist/engine/lint-worker.js).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ensureCelParser } from '../schema/cel-syntax.js';
import { lintShare, type ShareRequest } from './lint-parallel.js';

const req = workerData as ShareRequest;
if ([...req.files, ...(req.opts.crdFiles ?? [])].some((f) => f.text.includes('x-kubernetes-validations'))) await ensureCelParser();
parentPort!.postMessage(lintShare(req));
