import type { Formatter } from './types.js';

export const FORMAT_NAMES = ['stylish', 'json', 'sarif', 'junit', 'github'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** A formatter, loaded when it is asked for (sarif needs node:crypto, whose load costs a cold start ~10 ms). */
export async function loadFormatter(name: FormatName): Promise<Formatter> {
  switch (name) {
    case 'stylish':
      return (await import('./stylish.js')).stylish;
    case 'json':
      return (await import('./json.js')).json;
    case 'sarif':
      return (await import('./sarif.js')).sarif;
    case 'junit':
      return (await import('./junit.js')).junit;
    case 'github':
      return (await import('./github.js')).github;
  }
}
