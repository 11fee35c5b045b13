/**
 * url() parse errors (src/schema/cel/lib/url.ts requestURIError): Go 1.26 net/url's errors past the
 * scheme (authority, userinfo, IP literal, port, escapes, host characters), recorded from the 1.37
 * apiserver as `URL parse error during conversion from string: <error> evaluating rule: …`.
 * The same strings are replayed against the server by cel-libs.conformance (urls, formats).
 */
import { describe, expect, it } from 'vitest';
import { requestURIErrorOrUnworded } from '../../src/schema/cel/lib/url.js';

const RECORDED: [string, string][] = [
  ['https://example.com/%zz', 'invalid URL escape "%zz"'],
  ['https://example.com/a%4', 'invalid URL escape "%4"'],
  ['https://example.com/%é', 'invalid URL escape "%é"'],
  ['https://exa mple.com/', 'invalid character " " in host name'],
  ['https://ex%41mple.com/', 'invalid URL escape "%41"'],
  ['https://example.com:abc/', 'invalid port ":abc" after host'],
  ['https://a:1:2/', 'invalid port ":1:2" after host'],
  ['https://us er@example.com/', 'net/url: invalid userinfo'],
  ['https://u:p%zz@example.com/', 'invalid URL escape "%zz"'],
  ['https://a[::1]/', 'invalid IP-literal'],
  ['https://[::1/', "missing ']' in host"],
  ['https://[1.2.3.4]/', 'invalid IP-literal'],
  ['https://[::g]/', 'invalid host: ParseAddr("::g"): each colon-separated field must have at least one digit (at "g")'],
  ['https://[fe80::1%25%00]/', 'invalid URL escape "%00"'],
  ['https://[::1]:x/', 'invalid port ":x" after host'],
];

describe('url() parse errors as Go words them', () => {
  for (const [raw, why] of RECORDED) {
    it(raw, () => {
      expect(requestURIErrorOrUnworded(raw)).toBe(`parse ${JSON.stringify(raw)}: ${why}`);
    });
  }
  it('URLs Go accepts have no error', () => {
    for (const raw of ['https://[fe80::1%25en0]:443/', 'ftp://a:1:2/', 'https://ex%C3%A9mple.com/', 'https:///x', '*']) expect(requestURIErrorOrUnworded(raw)).toBeUndefined();
  });
  it('an escape cut inside a UTF-8 sequence (Go quotes the bytes with \\x) is not worded: null', () => {
    expect(requestURIErrorOrUnworded('https://example.com/%aé')).toBeNull();
  });
});
