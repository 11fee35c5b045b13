import { quote } from '../go/quote.js';
import { forbidden, invalid, notSupported, required } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { dns1035LabelErrors, dns1123SubdomainErrors } from '../crd/dns.js';
import { arr, has, rec, str, type Rec } from '../crd/json.js';
import { X509Certificate } from 'node:crypto';
import type { InstalledCrd } from '../crd/installed.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport, type Report } from './types.js';

const CONV = new Loc('spec.conversion', ['spec', 'conversion']);

export const conversion = defineRule({
  id: 'conversion',
  meta: serverMeta({
    docs: {
      description: 'spec.conversion must be None, or Webhook with exactly one of url/service and v1 or v1beta1 review versions.',
      details:
        'The server reports webhook fields under their internal names spec.conversion.webhookClientConfig and spec.conversion.conversionReviewVersions. On an update (lint --old) of an Established CRD whose CA bundle was valid or empty, the new caBundle must load as root certificates; a review version list without v1 or v1beta1 stays allowed when the installed one had none either.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionSpec, validateCustomResourceConversion, validateConversionReviewVersions, allowInvalidCABundle; k8s.io/apiserver pkg/util/webhook/validation.go: ValidateWebhookURL, ValidateWebhookService, ValidateCABundle; k8s.io/client-go transport/transport.go: TLSConfigFor, rootCertPool, createErrorParsingCAData; k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/conversion.go: Convert_v1_CustomResourceConversion_To_apiextensions_CustomResourceConversion',
    },
  }),
  *check({ crd, update }) {
    if (crd.requestVersion !== 'v1') return;
    // an update requires a recognized review version only if the installed CRD had one (or none at all)
    const oldCrv = update ? reviewVersions(update.old.crd.conversion) : [];
    const requireRecognized = oldCrv.length === 0 || oldCrv.some((v) => v === 'v1' || v === 'v1beta1');
    const conv = crd.conversion ?? { strategy: 'None' };
    const strategy = str(conv['strategy']);
    const webhook = rec(conv['webhook']);
    const ccRaw = webhook ? rec(webhook['clientConfig']) : undefined;
    const wAt = ['spec', 'conversion', 'webhook'];
    const cc = new Loc('spec.conversion.webhookClientConfig', ccRaw ? [...wAt, 'clientConfig'] : webhook ? wAt : CONV.at);
    const crvPresent = webhook !== undefined && has(webhook, 'conversionReviewVersions');
    const crvList = webhook ? arr(webhook['conversionReviewVersions']).map(str) : [];
    const crv = new Loc('spec.conversion.conversionReviewVersions', crvPresent ? [...wAt, 'conversionReviewVersions'] : webhook ? wAt : CONV.at);
    const stratLoc = CONV.child('strategy');
    if (strategy === '') yield serverReport(required(stratLoc, ''));
    else if (strategy !== 'None' && strategy !== 'Webhook') yield serverReport(notSupported(stratLoc, strategy, ['None', 'Webhook']));
    if (crd.preserveUnknownFields && strategy !== 'None')
      yield serverReport(invalid(stratLoc, strategy, 'must be None if spec.preserveUnknownFields is true'));
    if (strategy === 'Webhook') {
      if (!ccRaw) yield serverReport(required(cc, 'required when strategy is set to Webhook'));
      else {
        yield* clientConfig(ccRaw, cc);
        // a CA bundle is checked only on an update of an Established CRD whose own bundle was valid (or empty)
        const bundle = str(ccRaw['caBundle']);
        if (bundle !== '' && update && !allowInvalidCaBundle(update.old)) {
          const err = caBundleError(bundle);
          if (err !== undefined) yield serverReport(invalid(cc.child('caBundle'), Buffer.from(bundle, 'base64').toString('base64'), `unable to load root certificates: ${err}`));
        }
      }
      if (crvList.length === 0) yield serverReport(required(crv, ''));
      else {
        const seen = new Set<string>();
        let known = false;
        for (let i = 0; i < crvList.length; i++) {
          const v = crvList[i]!;
          const l = crv.index(i);
          if (seen.has(v)) {
            yield serverReport(invalid(l, v, 'duplicate version'));
            continue;
          }
          seen.add(v);
          const e = dns1035LabelErrors(v);
          if (e.length > 0) yield serverReport(invalid(l, v, e.join(',')));
          if (v === 'v1' || v === 'v1beta1') known = true;
        }
        if (requireRecognized && !known) yield serverReport(invalid(crv, crvList, 'must include at least one of v1, v1beta1'));
      }
    } else {
      if (ccRaw) yield serverReport(forbidden(cc, 'should not be set when strategy is not set to Webhook'));
      if (crvList.length > 0) yield serverReport(forbidden(crv, 'should not be set when strategy is not set to Webhook'));
    }
  },
});

/** allowInvalidCABundle: OLD is not Established, or its own CA bundle is set and invalid. */
function allowInvalidCaBundle(old: InstalledCrd): boolean {
  if (!old.established) return true;
  const oldBundle = str(rec(rec(old.crd.conversion?.['webhook'])?.['clientConfig'])?.['caBundle']);
  return oldBundle !== '' && caBundleError(oldBundle) !== undefined;
}

/**
 * Why client-go cannot load a CA bundle (base64 of PEM) as root certificates (transport.rootCertPool):
 * undefined when some CERTIFICATE block without headers parses. The reason follows
 * createErrorParsingCAData; a certificate the DER parser refuses is reported with Go's commonest
 * x509 text ("x509: malformed certificate"), which other malformations word differently.
 */
export function caBundleError(base64: string): string | undefined {
  let rest = Buffer.from(base64, 'base64').toString('latin1');
  const blocks: { type: string; headers: boolean; der: Buffer }[] = [];
  let firstError: string | undefined;
  for (;;) {
    const m = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----[ \t]*(\r?\n|$)/.exec(rest);
    if (!m) {
      if (rest.length > 0 && firstError === undefined) firstError = 'unable to parse bytes as PEM block';
      break;
    }
    const body = m[2]!;
    const headers = /^[^\n]*:/.test(body);
    blocks.push({ type: m[1]!, headers, der: Buffer.from(body.replace(/^[^\n]*:[^\n]*\n/gm, ''), 'base64') });
    rest = rest.slice(m.index + m[0].length);
  }
  let parsed = false;
  let parseError: string | undefined;
  for (const b of blocks) {
    if (b.type !== 'CERTIFICATE' || b.headers) continue;
    try {
      new X509Certificate(b.der);
      parsed = true;
    } catch {
      parseError ??= 'failed to parse certificate: x509: malformed certificate';
    }
  }
  if (parsed) return undefined;
  // the blocks are walked in order: a bad certificate before the end, else what stopped the walk
  return parseError ?? firstError ?? 'no valid certificate authority data seen';
}

function reviewVersions(conv: Rec | undefined): string[] {
  const webhook = rec(conv?.['webhook']);
  return webhook ? arr(webhook['conversionReviewVersions']).map(str) : [];
}

function* clientConfig(c: Rec, loc: Loc): Iterable<Report<'server'>> {
  const hasUrl = has(c, 'url');
  const svc = rec(c['service']);
  if (hasUrl === (svc !== undefined)) {
    yield serverReport(required(loc, 'exactly one of url or service is required'));
    return;
  }
  if (hasUrl) {
    const url = str(c['url']);
    const ul = loc.child('url');
    let u: URL | undefined;
    try {
      u = new URL(url);
    } catch {
      u = undefined;
    }
    const scheme = u ? u.protocol.replace(/:$/, '') : url.includes('://') ? url.slice(0, url.indexOf('://')) : '';
    const host = u ? u.host : '';
    if (url !== '' && !u && /[\s\x00-\x1f]/.test(url)) {
      yield serverReport(required(ul, `url must be a valid URL: parse ${quote(url)}: invalid URL; desired format: https://host[/path]`));
      return;
    }
    if (scheme !== 'https') yield serverReport(invalid(ul, url, "'https' is the only allowed URL scheme; desired format: https://host[/path]"));
    if (host === '') yield serverReport(invalid(ul, url, 'host must be provided; desired format: https://host[/path]'));
    if (u && (u.username !== '' || u.password !== '')) yield serverReport(invalid(ul, url, 'user information is not permitted in the URL'));
    if (u && u.hash !== '') yield serverReport(invalid(ul, url, 'fragments are not permitted in the URL'));
    if (u && u.search !== '') yield serverReport(invalid(ul, url, 'query parameters are not permitted in the URL'));
    return;
  }
  const s = svc!;
  const sl = loc.child('service');
  if (str(s['name']) === '') yield serverReport(required(sl.child('name'), 'service name is required'));
  if (str(s['namespace']) === '') yield serverReport(required(sl.child('namespace'), 'service namespace is required'));
  const port = s['port'] === undefined || s['port'] === null ? 443 : s['port'];
  if (typeof port !== 'number' || port < 1 || port > 65535)
    yield serverReport(invalid(sl.child('port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (has(s, 'path')) {
    const p = str(s['path']);
    const pl = sl.child('path');
    if (p === '/') return;
    if (p.length >= 2 && p.startsWith('//')) {
      yield serverReport(invalid(pl, p, 'segment[0] may not be empty'));
      return;
    }
    if (!p.startsWith('/')) {
      yield serverReport(invalid(pl, p, "must start with a '/'"));
      return;
    }
    const segs = p.slice(1).split('/');
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i]!;
      if (seg === '') yield serverReport(invalid(pl, p, `segment[${i}] may not be empty`));
      else {
        const e = dns1123SubdomainErrors(seg);
        if (e.length > 0) yield serverReport(invalid(pl, p, `segment[${i}]: ${e.join(', ')}`));
      }
    }
  }
}
