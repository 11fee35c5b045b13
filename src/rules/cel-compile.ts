import { schemaCategoryRule } from './helpers.js';

export const celCompile = schemaCategoryRule('cel-compile', 'cel-compile', {
  docs: {
    description: 'x-kubernetes-validations rules and message expressions must compile and type-check against the schema.',
    details:
      "The API server compiles every rule when the CRD is written: against `self` (and `oldSelf`) typed from the schema node it sits on (property names escaped, `x-kubernetes-int-or-string` as dyn, the resource root's `metadata` holding only name and generateName, `format: date-time`/`duration`/`byte` as timestamp/duration/bytes), with the Kubernetes CEL libraries available at the server's compatibility version (one minor below the server for new rules). A rule that does not type-check, that does not evaluate to a bool, or a messageExpression that does not evaluate to a string is rejected with cel-go's message, its `ERROR: <input>:line:column:` line and caret excerpt. Object type names in these messages are `selfType0…` where the server prints `selfType<number>` (a number that changes on every write). The server then builds the program, and cel-go folds constants while planning it: a conversion (`int`, `uint`, `double`, `bool`, `string`, `bytes`, `timestamp`, `duration`) of a constant argument is evaluated there, so `int('abc') == 1` or `string(b'\\xff') == 'a'` anywhere in a rule (even in a branch never taken) is rejected with `program instantiation failed: type conversion error from 'string' to 'int'` (in a messageExpression, `messageExpression instantiation failed: …`). A constant regular expression given to `find`, `findAll` or `matches` is compiled there too, so `self.s.find('(') == ''` is rejected with `program instantiation failed: error parsing regexp: missing closing ): …` (Go's regexp error). Rules crdx cannot check faithfully are reported by `cel-not-evaluated` instead.",
    reference:
      'k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go: Compile, compileRule; k8s.io/apiserver pkg/cel/common/schemas.go: SchemaDeclType',
  },
});
