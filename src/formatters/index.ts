import { github } from './github.js';
import { json } from './json.js';
import { junit } from './junit.js';
import { sarif } from './sarif.js';
import { stylish } from './stylish.js';
import type { Formatter } from './types.js';

export const FORMAT_NAMES = ['stylish', 'json', 'sarif', 'junit', 'github'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export const formatters: Record<FormatName, Formatter> = { stylish, json, sarif, junit, github };
