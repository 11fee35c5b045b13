/**
 * The bridge from the CEL type checker (check.ts) to the cost estimator: compiles an expression
 * with `self` (and `oldSelf`) typed as the schema node, as compilation.go compileRule does for a
 * new CRD (the environment of compatibility version n-1), and hands the checked tree over as
 * `CostAst`. An expression the server would not compile has no cost (the server reports the
 * compile error, and its MaxCost stays 0); one whose compilation crdx cannot decide is reported
 * as not estimated.
 */
import { kubeMinor } from '../../core/kube-version.js';
import type { Crd } from '../../crd/model.js';
import type { Structural } from '../../crd/structural-schema.js';
import { compileCel, type CompileOutcome } from './check.js';
import { compileExpression, GO_LITERAL_CHECKS } from './compile.js';
import type { CostAst, CostExpr } from './cost.js';
import { costOptionsFor, type CostCompile, type CostCompiler } from './cost-crd.js';
import { celTypeOf, schemaDeclType } from './decl.js';
import { optionalOf, type CelType } from './types.js';
import type { StoredExpressions } from '../update-options.js';

/** The compatibility version (minor) new expressions compile with: one below the server's. */
export function newExpressionCompat(crd: Crd): number {
  return kubeMinor(crd.kube) - 1;
}

/**
 * The compiler of a CRD's expressions. On update (`stored`: the expressions of the stored CRD), an
 * expression whose text is among the stored ones of its kind compiles in the stored-expressions
 * environment (compatibility version = the server's minor), as validation.go's preexisting
 * expressions do: it then has a cost that counts in the schema's total even where the n-1
 * environment would not compile it (a stored rule using a library new in the server's minor).
 */
export function costCompiler(crd: Crd, stored?: StoredExpressions): CostCompiler {
  const fresh = costCompilerFor(newExpressionCompat(crd));
  if (stored === undefined) return fresh;
  const server = kubeMinor(crd.kube);
  const old = costCompilerFor(server, server);
  return {
    compile: (expr, node, isRoot, kind, optionalOldSelf) =>
      ((kind === 'rule' ? stored.rules : stored.messageExpressions).has(expr) ? old : fresh).compile(expr, node, isRoot, kind, optionalOldSelf),
  };
}

/**
 * The compiler of the environment of a compatibility version (minor of 1.x) on a server of minor
 * `server` (new expressions: compat + 1).
 */
export function costCompilerFor(compat: number, server: number = compat + 1): CostCompiler {
  return {
    compile(expr, node, isRoot, kind, optionalOldSelf) {
      const decl = schemaDeclType(node, isRoot, server);
      // the server's cel.Compile refuses such a node (an Internal error, src/schema/walk.ts): none of
      // its rules is compiled or costed, and the CRD is rejected for it
      if (!decl) return { ok: false, error: true };
      const key = `${kind}\0${optionalOldSelf}\0${expr}`;
      const perNode = node.derive(`cel-cost-compile-${isRoot}-${compat}-${server}`, () => new Map<string, CostCompile>());
      const hit = perNode.get(key);
      if (hit) return hit;
      // the checked tree cel-compile already made (compile.ts caches it per rule text and type);
      // compiled here only when that verdict is not a clean compile (errors, undecided parts)
      const v = compileExpression(expr, decl, { compat, server, optionalOldSelf, literals: GO_LITERAL_CHECKS }, kind === 'rule' ? 'bool' : 'string');
      let out: CostCompile;
      if (v.kind === 'ok') out = { ok: true, ast: costAst(v.outcome, compat, server) };
      // compiles but Program() fails (a folded conversion): the server estimates no cost
      else if (v.kind === 'error' && v.program) out = { ok: false, error: true };
      // the server panics compiling it (cel-compile-panic): it never gets to the cost
      else if (v.kind === 'panic') out = { ok: false, error: true };
      else {
        const self = celTypeOf(decl);
        const variables = new Map<string, CelType>([
          ['self', self],
          ['oldSelf', optionalOldSelf ? optionalOf(self) : self],
        ]);
        out = compileOne(expr, kind, compat, server, variables);
      }
      perNode.set(key, out);
      return out;
    },
  };
}


function compileOne(expr: string, kind: 'rule' | 'messageExpression', compat: number, server: number, variables: ReadonlyMap<string, CelType>): CostCompile {
  let r;
  try {
    r = compileCel(expr, { compat, server, variables }, GO_LITERAL_CHECKS);
  } catch (e) {
    return { ok: false, error: false, why: `the type checker failed (${(e as Error).message})` };
  }
  if (r.syntaxError || r.issues.length > 0 || !r.checked || !r.parsed) return { ok: false, error: true };
  const out = r.checked.type;
  if (kind === 'rule' ? out.kind !== 'bool' : out.kind !== 'string') return { ok: false, error: true };
  return { ok: true, ast: costAst(r, compat, server), ...(r.undecided !== undefined ? { undecided: r.undecided } : {}) };
}

/** The checked tree of a clean compile, as the estimator reads it. */
function costAst(r: CompileOutcome, compat: number, server: number): CostAst {
  const checked = r.checked!;
  return {
    root: globalCalls(r.parsed!.expr, (id) => checked.typeOf(id) !== undefined),
    options: costOptionsFor(compat, server),
    typeOf: (id) => checked.typeOf(id),
    overloadIds: (id) => checked.refOf(id)?.overloadIds ?? [],
  };
}

function qualified(e: CostExpr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const q = qualified(e.operand);
    return q === undefined ? undefined : `${q}.${e.field}`;
  }
  return undefined;
}

/**
 * The checked tree as cel-go hands it to the estimator: a call through a namespace
 * (`sets.contains(a, b)`, `ip.isCanonical(s)`, `strings.quote(s)`) is a global call of the
 * qualified function, without a target. Our checker leaves such a target unchecked (no type).
 */
export function globalCalls(e: CostExpr, checked: (id: number) => boolean): CostExpr {
  const r = (x: CostExpr): CostExpr => globalCalls(x, checked);
  switch (e.kind) {
    case 'literal':
    case 'ident':
      return e;
    case 'select':
      return { ...e, operand: r(e.operand) };
    case 'call': {
      const q = e.target && !checked(e.target.id) ? qualified(e.target) : undefined;
      if (q !== undefined) return { ...e, fn: `${q}.${e.fn}`, target: undefined, args: e.args.map(r) };
      return { ...e, target: e.target ? r(e.target) : undefined, args: e.args.map(r) };
    }
    case 'list':
      return { ...e, elements: e.elements.map(r) };
    case 'map':
      return { ...e, entries: e.entries.map((en) => ({ ...en, key: r(en.key), value: r(en.value) })) };
    case 'struct':
      return { ...e, fields: e.fields.map((f) => ({ ...f, value: r(f.value) })) };
    case 'comprehension':
      return {
        ...e,
        iterRange: r(e.iterRange),
        accuInit: r(e.accuInit),
        loopCondition: r(e.loopCondition),
        loopStep: r(e.loopStep),
        result: r(e.result),
      };
  }
}
