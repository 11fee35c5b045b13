// crd-validation.md §21 I. Conversion (TV94–TV106).
// BASE gets a second version {name: version2, served: true, storage: false, schema: <same>}; CC = spec.conversion.webhookClientConfig.
import { describe, it } from 'vitest';
import { crd, expectExactly, expectNoErrors, lint, version, type Exp, type Obj } from './util.js';

const CC = 'spec.conversion.webhookClientConfig';
const CRV = 'spec.conversion.conversionReviewVersions';
const URL = 'https://example.com/webhook';
const MUST_INCLUDE = 'must include at least one of v1, v1beta1';

const withConversion = (conversion: Obj, patch: (c: Obj) => void = () => {}) =>
  crd((c) => {
    c.spec.versions.push(version('version2', false));
    c.spec.conversion = conversion;
    patch(c);
  });
const webhook = (webhookFields: Obj) => ({ strategy: 'Webhook', webhook: webhookFields });
const reviewVersions = (v: string[]) => webhook({ conversionReviewVersions: v, clientConfig: { url: URL } });

const cases: [string, Obj, Exp[]][] = [
  [
    'TV94 service port 0',
    webhook({ conversionReviewVersions: ['v1'], clientConfig: { service: { name: 'n', namespace: 'ns', port: 0 } } }),
    [['Invalid', `${CC}.service.port`, 'port is not valid: must be between 1 and 65535, inclusive', 'Invalid value: 0']],
  ],
  [
    'TV94 variant: service port 65536',
    webhook({ conversionReviewVersions: ['v1'], clientConfig: { service: { name: 'n', namespace: 'ns', port: 65536 } } }),
    [['Invalid', `${CC}.service.port`, 'port is not valid: must be between 1 and 65535, inclusive', 'Invalid value: 65536']],
  ],
  [
    'TV95 url and service both set',
    webhook({ conversionReviewVersions: ['v1'], clientConfig: { url: URL, service: { name: 'n', namespace: 'ns' } } }),
    [['Required', CC, 'exactly one of url or service is required']],
  ],
  [
    'TV96 empty url',
    webhook({ conversionReviewVersions: ['v1'], clientConfig: { url: '' } }),
    [
      ['Invalid', `${CC}.url`, "'https' is the only allowed URL scheme; desired format: https://host[/path]"],
      ['Invalid', `${CC}.url`, 'host must be provided; desired format: https://host[/path]'],
    ],
  ],
  [
    'TV97 clientConfig with strategy None',
    { strategy: 'None', webhook: { clientConfig: { url: URL } } },
    [['Forbidden', CC, 'should not be set when strategy is not set to Webhook']],
  ],
  [
    'TV98 conversionReviewVersions with strategy None',
    { strategy: 'None', webhook: { conversionReviewVersions: ['v1beta1'] } },
    [['Forbidden', CRV, 'should not be set when strategy is not set to Webhook']],
  ],
  ['TV99 no known review version', reviewVersions(['invalid-version']), [['Invalid', CRV, MUST_INCLUDE]]],
  [
    'TV100 invalid review version name',
    reviewVersions(['0v']),
    [
      ['Invalid', `${CRV}[0]`, 'a DNS-1035 label must consist of lower case alphanumeric characters'],
      ['Invalid', CRV, MUST_INCLUDE],
    ],
  ],
  ['TV101 duplicate review version', reviewVersions(['v1beta1', 'v1beta1']), [['Invalid', `${CRV}[1]`, 'duplicate version']]],
  [
    'TV103 Webhook without webhook',
    { strategy: 'Webhook' },
    [
      ['Required', CC, 'required when strategy is set to Webhook'],
      ['Required', CRV],
    ],
  ],
  [
    'TV104 unknown strategy',
    { strategy: 'non_existing_conversion' },
    [['NotSupported', 'spec.conversion.strategy', 'supported values: "None", "Webhook"']],
  ],
];

describe('§21 I. Conversion', () => {
  for (const [name, conversion, exp] of cases) {
    it(name, () => {
      expectExactly(lint(withConversion(conversion)), exp);
    });
  }

  it('TV102 one unknown and one known review version', () => {
    expectNoErrors(lint(withConversion(reviewVersions(['invalid-version', 'v1beta1']))));
  });

  it('TV105 Webhook with preserveUnknownFields true', () => {
    const yaml = withConversion(webhook({ conversionReviewVersions: ['v1beta1'], clientConfig: { url: URL } }), (c) => {
      c.spec.preserveUnknownFields = true;
    });
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.conversion.strategy', 'must be None if spec.preserveUnknownFields is true', 'Invalid value: "Webhook"'],
      ['Invalid', 'spec.preserveUnknownFields', 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true'],
    ]);
  });

  it('TV106 invalid caBundle is allowed on create', () => {
    const yaml = withConversion(
      webhook({
        conversionReviewVersions: ['v1'],
        clientConfig: { service: { name: 'n', namespace: 'ns', port: 443 }, caBundle: 'Cg==' },
      }),
    );
    expectNoErrors(lint(yaml));
  });
});
