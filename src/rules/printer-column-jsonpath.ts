import { str, rec } from '../crd/json.js';
import { defineRule } from './types.js';

/** Problems kubectl's JSONPath parser (client-go util/jsonpath) reports for `{<path>}`. */
function jsonPathProblem(path: string): string | undefined {
  let i = 0;
  const n = path.length;
  const stack: string[] = [];
  while (i < n) {
    const c = path[i]!;
    if (c === "'" || c === '"') {
      const end = path.indexOf(c, i + 1);
      if (end < 0) return 'unterminated string';
      i = end + 1;
      continue;
    }
    if (c === '[' || c === '(') stack.push(c);
    else if (c === ']' || c === ')') {
      const open = stack.pop();
      if ((c === ']' && open !== '[') || (c === ')' && open !== '(')) return `unmatched ${c}`;
    } else if (c === '{' || c === '}') return `unexpected ${c}`;
    i++;
  }
  if (stack.length > 0) return stack[stack.length - 1] === '[' ? 'unterminated array' : 'unterminated filter';
  // array subscripts must be indexes, slices, *, quoted names or filters
  for (const m of path.matchAll(/\[([^\]'"]*(?:'[^']*'|"[^"]*")?[^\]]*)\]/g)) {
    const inner = m[1]!.trim();
    if (inner === '') return 'empty array subscript';
    if (/^(\*|-?\d*(:-?\d*){0,2}|'[^']*'(,\s*'[^']*')*|"[^"]*"(,\s*"[^"]*")*|-?\d+(,\s*-?\d+)*|\?\(.*\))$/.test(inner)) continue;
    return `invalid array subscript [${inner}]`;
  }
  if (/\.$/.test(path) && !/\.\.$/.test(path)) return 'path ends with a dot';
  return undefined;
}

export const printerColumnJsonpath = defineRule({
  id: 'printer-column-jsonpath',
  meta: {
    type: 'suggestion',
    serverFaithful: false,
    defaultSeverity: 'warning',
    docs: {
      description: 'Printer-column paths should be JSONPath that kubectl can evaluate.',
      details:
        'The server only checks the leading dot. A column whose path the JSONPath parser rejects stops the table converter (`unrecognized column definition`, logged by the server only): the server keeps the NAME column and the columns before that one, and silently drops it and every column after it for that version (checked against a real server: columns A, B with a bad path, C give the table NAME, A).',
      reference: 'k8s.io/apiextensions-apiserver pkg/registry/customresource/tableconvertor/tableconvertor.go: New; k8s.io/apiextensions-apiserver pkg/apiserver/customresource_handler.go: crdHandler.getOrCreateServingInfoFor; k8s.io/client-go util/jsonpath/jsonpath.go: JSONPath.Parse (not checked by the server)',
    },
    messages: {
      unparsable: 'jsonPath {{path}} cannot be parsed ({{problem}}): the server silently drops this printer column and every one after it; tables show only {{shown}}',
    },
  },
  *check({ crd }) {
    for (const t of crd.columns) {
      // the converter stops at the first column it cannot parse: NAME and the columns before it stay
      let shown: string | undefined;
      for (let j = 0; j < t.value.length; j++) {
        const path = str(rec(t.value[j])?.['jsonPath']);
        if (!path.startsWith('.')) continue;
        const problem = jsonPathProblem(path);
        if (!problem) continue;
        shown ??= ['NAME', ...t.value.slice(0, j).map((c) => str(rec(c)?.['name']))].join(', ');
        yield { messageId: 'unparsable' as const, data: { path, problem, shown }, path: [...t.loc.at, j, 'jsonPath'] };
      }
    }
  },
});
