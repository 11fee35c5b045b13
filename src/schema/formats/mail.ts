/** Go 1.26 net/mail.ParseAddress (strfmt's `email`). */
import { hexVal, parseIPStd } from './net.js';
import { utf8Len } from '../../go/strings.js';

class MailParser {
  constructor(public s: string) {}

  empty(): boolean {
    return this.s.length === 0;
  }
  peek(): string {
    return this.s[0] ?? '';
  }
  consume(c: string): boolean {
    if (this.empty() || this.peek() !== c) return false;
    this.s = this.s.slice(1);
    return true;
  }
  skipSpace(): void {
    this.s = this.s.replace(/^[ \t]+/, '');
  }
  skipCFWS(): boolean {
    this.skipSpace();
    while (this.consume('(')) {
      if (this.consumeComment() === undefined) return false;
      this.skipSpace();
    }
    return true;
  }
  /** undefined when unbalanced. */
  consumeComment(): string | undefined {
    let depth = 1;
    let comment = '';
    while (!this.empty() && depth !== 0) {
      if (this.peek() === '\\' && this.s.length > 1) this.s = this.s.slice(1);
      else if (this.peek() === '(') depth++;
      else if (this.peek() === ')') depth--;
      if (depth > 0) comment += this.s[0];
      this.s = this.s.slice(1);
    }
    return depth === 0 ? comment : undefined;
  }

  /** Returns the number of addresses, or undefined on error. */
  parseAddress(handleGroup: boolean): number | undefined {
    this.skipSpace();
    if (this.empty()) return undefined;
    if (this.consumeAddrSpec()) {
      this.skipSpace();
      if (!this.empty() && this.peek() === '(') {
        if (!this.consume('(')) return undefined;
        const comment = this.consumeComment();
        if (comment === undefined) return undefined;
        for (const word of comment.split(/[ \t]+/).filter((w) => w !== '')) {
          if (decodeRFC2047(word).err) return undefined;
        }
      }
      return 1;
    }
    if (this.peek() !== '<') {
      if (!this.consumePhrase()) return undefined;
    }
    this.skipSpace();
    if (handleGroup && this.consume(':')) return this.consumeGroupList();
    if (!this.consume('<')) return undefined;
    if (!this.consumeAddrSpec()) return undefined;
    if (!this.consume('>')) return undefined;
    return 1;
  }

  consumeGroupList(): number | undefined {
    let n = 0;
    this.skipSpace();
    if (this.consume(';')) return this.skipCFWS() ? 0 : undefined;
    for (;;) {
      this.skipSpace();
      const a = this.parseAddress(false);
      if (a === undefined) return undefined;
      n += a;
      if (!this.skipCFWS()) return undefined;
      if (this.consume(';')) {
        if (!this.skipCFWS()) return undefined;
        break;
      }
      if (!this.consume(',')) return undefined;
    }
    return n;
  }

  /** Restores the input on failure. */
  consumeAddrSpec(): boolean {
    const orig = this.s;
    const ok = this.addrSpec();
    if (!ok) this.s = orig;
    return ok;
  }

  private addrSpec(): boolean {
    this.skipSpace();
    if (this.empty()) return false;
    if (this.peek() === '"') {
      const q = this.consumeQuotedString();
      if (q === undefined || q === '') return false;
    } else if (this.consumeAtom(true, false) === undefined) {
      return false;
    }
    if (!this.consume('@')) return false;
    this.skipSpace();
    if (this.empty()) return false;
    if (this.peek() === '[') return this.consumeDomainLiteral();
    return this.consumeAtom(true, false) !== undefined;
  }

  /** addrParser.consumePhrase: fails only when no word at all could be read. */
  consumePhrase(): boolean {
    let words = 0;
    let pending = false; // Go's strings.Builder of decoded encoded-words is non-empty
    let failed = false;
    for (;;) {
      if (words > 0 && !this.skipCFWS()) return false;
      this.skipSpace();
      if (this.empty()) break;
      let encoded = false;
      let decodedNonEmpty = false;
      if (this.peek() === '"') {
        if (this.consumeQuotedString() === undefined) {
          failed = true;
          break;
        }
      } else {
        const atom = this.consumeAtom(true, true);
        if (atom === undefined) {
          failed = true;
          break;
        }
        const d = decodeRFC2047(atom);
        if (d.err) {
          failed = true;
          break;
        }
        encoded = d.isEncoded;
        decodedNonEmpty = d.nonEmpty;
      }
      if (encoded) {
        if (decodedNonEmpty) pending = true;
      } else if (pending) {
        words += 2;
        pending = false;
      } else {
        words++;
      }
    }
    if (pending) words++;
    return !(failed && words === 0);
  }

  consumeQuotedString(): string | undefined {
    let i = 1;
    let qs = '';
    let escaped = false;
    for (;;) {
      const cp = this.s.codePointAt(i);
      if (cp === undefined) return undefined;
      const r = String.fromCodePoint(cp);
      if (escaped) {
        if (!isVchar(cp) && !isWSP(cp)) return undefined;
        qs += r;
        escaped = false;
      } else if (isQtext(cp) || isWSP(cp)) {
        qs += r;
      } else if (r === '"') {
        break;
      } else if (r === '\\') {
        escaped = true;
      } else {
        return undefined;
      }
      i += r.length;
    }
    this.s = this.s.slice(i + 1);
    return qs;
  }

  consumeAtom(dot: boolean, permissive: boolean): string | undefined {
    let i = 0;
    for (;;) {
      const cp = this.s.codePointAt(i);
      if (cp === undefined || !isAtext(cp, dot)) break;
      i += cp > 0xffff ? 2 : 1;
    }
    if (i === 0) return undefined;
    const atom = this.s.slice(0, i);
    this.s = this.s.slice(i);
    if (!permissive && (atom.startsWith('.') || atom.includes('..') || atom.endsWith('.'))) return undefined;
    return atom;
  }

  consumeDomainLiteral(): boolean {
    if (!this.consume('[')) return false;
    let dtext = '';
    for (;;) {
      if (this.empty()) return false;
      if (this.peek() === ']') break;
      const cp = this.s.codePointAt(0)!;
      if (!isDtext(cp)) return false;
      const r = String.fromCodePoint(cp);
      dtext += r;
      this.s = this.s.slice(r.length);
    }
    if (!this.consume(']')) return false;
    return parseIPStd(dtext);
  }
}

function isVchar(r: number): boolean {
  return (r >= 0x21 && r <= 0x7e) || r >= 0x80;
}
function isWSP(r: number): boolean {
  return r === 0x20 || r === 0x09;
}
function isAtext(r: number, dot: boolean): boolean {
  const c = String.fromCodePoint(r);
  if (c === '.') return dot;
  if ('()<>[]:;@\\,"'.includes(c)) return false;
  return isVchar(r);
}
function isQtext(r: number): boolean {
  if (r === 0x5c || r === 0x22) return false;
  return isVchar(r);
}
function isDtext(r: number): boolean {
  if (r === 0x5b || r === 0x5d || r === 0x5c) return false;
  return isVchar(r);
}

/** addrParser.decodeRFC2047Word with the default decoder: only an unsupported charset is an error. */
function decodeRFC2047(word: string): { isEncoded: boolean; err: boolean; nonEmpty: boolean } {
  const notEncoded = { isEncoded: false, err: false, nonEmpty: false };
  if (utf8Len(word) < 8 || !word.startsWith('=?') || !word.endsWith('?=') || word.split('?').length - 1 !== 4) return notEncoded;
  const inner = word.slice(2, -2);
  const q1 = inner.indexOf('?');
  const charset = inner.slice(0, q1);
  if (charset === '') return notEncoded;
  const rest = inner.slice(q1 + 1);
  const q2 = rest.indexOf('?');
  const encoding = rest.slice(0, q2);
  const text = rest.slice(q2 + 1);
  if (utf8Len(encoding) !== 1) return notEncoded;
  let decodes: boolean;
  if (encoding === 'B' || encoding === 'b') {
    decodes = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text.replace(/[\r\n]/g, ''));
  } else if (encoding === 'Q' || encoding === 'q') {
    decodes = qDecodes(text);
  } else {
    return notEncoded;
  }
  if (!decodes) return notEncoded;
  const cs = charset.toLowerCase();
  // Every encoded character decodes to at least one byte, so the text is empty only when the encoded text is.
  const nonEmpty = text !== '';
  if (cs === 'utf-8' || cs === 'iso-8859-1' || cs === 'us-ascii') return { isEncoded: true, err: false, nonEmpty };
  return { isEncoded: true, err: true, nonEmpty };
}

function qDecodes(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (s[i] === '_') continue;
    if (s[i] === '=') {
      if (i + 2 >= s.length) return false;
      if (hexVal(s[i + 1]) < 0 || hexVal(s[i + 2]) < 0) return false;
      i += 2;
      continue;
    }
    if ((c >= 0x20 && c <= 0x7e) || c === 10 || c === 13 || c === 9) continue;
    return false;
  }
  return true;
}

/** strfmt.IsEmail: mail.ParseAddress succeeds (the address part is never empty then). */
export function isEmail(str: string): boolean {
  const p = new MailParser(str);
  const n = p.parseAddress(true);
  if (n === undefined) return false;
  if (!p.skipCFWS()) return false;
  if (!p.empty()) return false;
  return n === 1;
}
