/**
 * Property names as CEL sees them (apiserver pkg/cel escaping.go): cel.Escape turns a property name
 * into a CEL identifier, cel.Unescape turns a field name back. The declared types (decl.ts), the
 * cost sizes (cost-decl.ts) and the bound values (bind.ts) all use these two.
 */

/** The words the CEL lexer reserves; a property named so is reached as `__word__`. */
const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/** Keywords that from compat 1.31 also resolve unescaped (DeclTypeProvider.SetRecognizeKeywordAsFieldName). */
export function isCelReserved(name: string): boolean {
  return RESERVED.has(name);
}

/**
 * cel.Escape: the CEL name of a property (`__` → `__underscores__`, `.` → `__dot__`, `-` → `__dash__`,
 * `/` → `__slash__`, a reserved word `w` → `__w__`), or undefined when it cannot be accessed (empty,
 * a leading digit, or a character outside `[a-zA-Z0-9_./-]`).
 */
export function escapeProperty(ident: string): string | undefined {
  if (ident.length === 0 || (ident[0]! >= '0' && ident[0]! <= '9')) return undefined;
  if (RESERVED.has(ident)) return `__${ident}__`;
  let simple = true;
  let prevUnderscore = false;
  for (const c of ident) {
    if (c === '/' || c === '-' || c === '.') {
      simple = false;
      break;
    }
    if (!/^[a-zA-Z0-9_]$/.test(c)) return undefined;
    if (c === '_' && prevUnderscore) {
      simple = false;
      break;
    }
    prevUnderscore = c === '_';
  }
  if (simple) return ident;
  let ok = true;
  const out = ident.replace(/(__|[-./]|[^a-zA-Z0-9\-./_])/g, (m) => {
    switch (m) {
      case '__':
        return '__underscores__';
      case '.':
        return '__dot__';
      case '-':
        return '__dash__';
      case '/':
        return '__slash__';
      default:
        ok = false;
        return '';
    }
  });
  return ok ? out : undefined;
}

/**
 * cel.Unescape: the property name of a CEL field name (`__dash__` → `-`, `__package__` → `package`,
 * a reserved word only as the whole name), or undefined when it is not a valid escaping.
 */
export function unescapeProperty(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (m) => {
    const inner = m.slice(2, -2);
    switch (inner) {
      case 'underscores':
        return '__';
      case 'dot':
        return '.';
      case 'dash':
        return '-';
      case 'slash':
        return '/';
    }
    if (RESERVED.has(inner)) {
      if (m.length !== escaped.length) ok = false;
      return inner;
    }
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}
