import { schemaCategoryRule } from './helpers.js';

export const schemaPattern = schemaCategoryRule('schema-pattern', 'pattern', {
  docs: {
    description: 'pattern must compile with Go RE2.',
    details:
      'The server compiles every pattern with Go regexp (RE2): lookarounds, backreferences and other Perl-only constructs are rejected with the RE2 parser error.',
    reference: 'k8s.io/apiextensions-apiserver pkg/apiserver/schema/validation.go: ValidateStructural, validateValueValidation',
  },
});
