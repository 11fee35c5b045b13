/** The DNS name checks of k8s.io/apimachinery/pkg/util/validation, with their exact texts (Go's len(): bytes). */

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const RE_1123_SUB = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const RE_1123_LABEL = new RegExp(`^${DNS1123_LABEL}$`);
const RE_1035 = new RegExp(`^${DNS1035_LABEL}$`);

function maxLen(n: number): string {
  return `must be no more than ${n} characters`;
}

export function dns1123SubdomainErrors(v: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(v) > 253) errs.push(maxLen(253));
  if (!RE_1123_SUB.test(v))
    errs.push(
      `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN}')`,
    );
  return errs;
}

/** IsDNS1123Label (namespaces): a valid subdomain that is not a label only "must not contain dots". */
export function dns1123LabelErrors(v: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(v) > 63) errs.push(maxLen(63));
  if (!RE_1123_LABEL.test(v)) {
    if (RE_1123_SUB.test(v)) errs.push('must not contain dots');
    else
      errs.push(
        `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL}')`,
      );
  }
  return errs;
}

export function dns1035LabelErrors(v: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(v) > 63) errs.push(maxLen(63));
  if (!RE_1035.test(v))
    errs.push(
      `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${DNS1035_LABEL}')`,
    );
  return errs;
}
