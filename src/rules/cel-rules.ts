import { schemaCategoryRule } from './helpers.js';

export const celRules = schemaCategoryRule('cel-rules', 'cel', {
  docs: {
    description: 'x-kubernetes-validations rules must be well formed.',
    details:
      'Each rule needs a non-empty rule, a single-line message (required when the rule spans lines), a non-empty messageExpression when given, a supported reason, and a fieldPath that resolves in the schema; oldSelf is not allowed on uncorrelatable parts of the schema and optionalOldSelf needs oldSelf; a rule that does not parse is reported here with the CEL engine parser text. Type checking against the schema is rule cel-compile; cost estimation is not reproduced yet.',
    reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceDefinitionOpenAPISchema, pathValid, specStandardValidatorV3.withForbidOldSelfValidations; k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/validation.go: ValidFieldPath',
  },
});
