import { ruleText } from './cel-not-evaluated.js';
import { defineRule } from './types.js';

/**
 * A rule or messageExpression the server panics compiling: cel-go's homogeneous aggregate literal
 * validator (which Kubernetes enables in every CEL environment) takes the type parameter of an
 * optional list element or map entry, `[?x]` or `{?k: x}`, without looking whether it has one. The
 * checker accepts an x of type dyn there (an int-or-string field, say), and dyn has none: the
 * validator indexes past the end, the goroutine panics and the request is cut off with no answer.
 *
 * Also where the server builds the CEL type of a node's rules (CELSchemaContext.TypeInfo): it takes
 * the type from the nearest ancestor in scope, child by child, and the child of a node whose own
 * type is nil (items of a `type: string` node that has `items`, which the server accepts) reads a
 * field of that nil type.
 */
const ACCESSOR = { properties: 'propertyTypeInfoAccessor', items: 'itemsTypeInfoAccessor', additionalProperties: 'additionalItemsTypeInfoAccessor' } as const;

export const celCompilePanic = defineRule({
  id: 'cel-compile-panic',
  meta: {
    type: 'problem',
    serverFaithful: true,
    defaultSeverity: 'error',
    docs: {
      description: 'x-kubernetes-validations the API server panics on, compiling a rule or building the CEL type of its node: the CRD request gets no answer and the CRD is not written.',
      details:
        'In a list or map literal, an optional element `[?x]` or entry `{?k: x}` must be an optional value. cel-go\'s type checker also accepts a value of type dyn there (an `x-kubernetes-int-or-string` field, a field under `x-kubernetes-preserve-unknown-fields`), but its homogeneous aggregate literal validator (cel-go cel/validator.go, homogeneousAggregateLiteralValidator.Validate), which Kubernetes enables in every CEL environment and which runs right after the type check, then reads the type parameter of a type that has none: `index out of range [0] with length 0`. The server\'s handler panics, and the request is cut off without a status (kubectl: `stream error: stream ID N; INTERNAL_ERROR; received from peer` over HTTP/2, `EOF` over HTTP/1.1); the CRD is neither created nor updated, and its custom resources have no CRD (`custom-resource`, "no matches for kind"). The JSON `aborted` field says what the server fails on; there is no status code to give. Literals inside `format()` are exempt from the validator and do not panic (the value then fails at evaluation, `cannot initialize optional list element from non-optional value`). Make the element optional: `self.?field`, `optional.of(self.field)`. The server also panics before compiling, building the CEL type of a node\'s rules: it derives that type from the nearest ancestor with rules, child by child (CELSchemaContext.TypeInfo). A node of a type without elements that still has `items` or `additionalProperties` (`type: string` with `items` is accepted) gives its items no type; the items\' own rules get `failed to convert to declType for CEL validation rules`, but the type of anything below them is read from that nil type (propertyTypeInfoAccessor, itemsTypeInfoAccessor or additionalItemsTypeInfoAccessor: `invalid memory address or nil pointer dereference`). The finding is at the x-kubernetes-validations of the node whose rules need the type, and names the node without one.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go: compileRule; k8s.io/apiserver pkg/cel/environment/base.go: MustBaseEnvSet',
    },
    messages: {
      panics: 'the API server panics compiling this {{what}} and answers nothing: {{element}} at {{line}}:{{column}} of it ({{text}}) is not an optional value, and cel-go\'s homogeneous literal validator reads its type parameter (index out of range); the CRD is not written. Make it optional, e.g. self.?field',
      untypedParent:
        'the API server panics building the CEL type of these rules and answers nothing: it reaches their node from an ancestor with rules, through {{untyped}}, which has no CEL type (it is the items or additionalProperties of a node whose type has no element type), and reads its {{through}} from that nil type; the CRD is not written. Give that node the type its items or additionalProperties need (array, or object)',
    },
  },
  *check(ctx) {
    for (const a of ctx.schemaAnalysis())
      for (const p of a.celPanics) {
        if (p.kind === 'type') {
          yield {
            messageId: 'untypedParent' as const,
            data: { untyped: p.untyped, through: p.through },
            path: p.at,
            at: 'key' as const,
            aborted: `the type information of the rules at ${p.field}, read through the nil CEL type of ${p.untyped} (apiextensions validation ${ACCESSOR[p.through]}.accessTypeInfo: invalid memory address or nil pointer dereference)`,
          };
          continue;
        }
        const what = p.field.endsWith('.messageExpression') ? 'messageExpression' : 'rule';
        const text = ruleText(p.text);
        yield {
          messageId: 'panics' as const,
          data: { what, element: p.what, line: p.line, column: p.column, text },
          path: p.at,
          aborted: `${p.what} in the ${what} at ${p.field} (cel-go homogeneousAggregateLiteralValidator: index out of range [0] with length 0)`,
        };
      }
  },
});
