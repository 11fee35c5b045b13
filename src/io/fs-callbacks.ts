/**
 * readFile, writeFile, stat and readdir as node:fs/promises has them, made from node:fs's callback
 * functions: importing node:fs/promises loads ten more of Node's internal modules (FileHandle,
 * watch, readline for readLines: ~1.2 ms of a cold lint) that these calls do not use. The same
 * results, and the same errors (code, message, path).
 */
import { readdir as readdirCallback, readFile as readFileCallback, stat as statCallback, writeFile as writeFileCallback } from 'node:fs';
import { promisify } from 'node:util';

export const readFile = promisify(readFileCallback);
export const writeFile = promisify(writeFileCallback);
export const stat = promisify(statCallback);
export const readdir = promisify(readdirCallback);
