/**
 * node:crypto in the browser build. The engine uses it once: rules/conversion.ts parses a webhook
 * caBundle's certificates, and only on an update of an installed CRD (lint --old), which the
 * playground does not offer. Reaching it anyway is a bug of the page, said as such.
 */
export class X509Certificate {
  constructor() {
    throw new Error('crdx playground: X.509 certificates cannot be parsed in the browser (lint --old is CLI only)');
  }
}
