/**
 * cel-go's syntax error texts (syntax-errors.ts) against cel-go 0.29.2's own output: a table per
 * error kind, recorded with test/apiserver/celsyntax. The whole set (every prefix of every corpus
 * rule, broken texts, seeded edits) is compared with cel-go running, at test time, by
 * test/conformance/cel-syntax.conformance.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { celGoSyntaxErrorText } from '../../../src/schema/cel/syntax-errors.js';
import { syntaxErrorDetail } from '../../../src/schema/cel/compile.js';
import { lintSources } from '../../../src/engine/lint.js';
import { cel } from '../../helpers/cel.js';
import { crdObject } from '../../helpers/crd.js';

// [what, expression, cel-go 0.29.2's text] (test/apiserver/celsyntax output)
const TABLE: readonly (readonly [string, string, string])[] = [
  ["operand after a binary operator", "self.a + ", "ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a + \n | .........^"],
  ["operand after ==, on the next line", "self.a ==\n", "ERROR: <input>:2:1: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | \n | ^"],
  ["operand after the ternary", "self.a ? 1 :", "ERROR: <input>:1:13: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a ? 1 :\n | ............^"],
  ["operand at the start of call arguments", "size(", "ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | size(\n | .....^"],
  ["operand after a comma in call arguments", "size(self.a,", "ERROR: <input>:1:13: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | size(self.a,\n | ............^"],
  ["operand at the start of a list", "[", "ERROR: <input>:1:2: Syntax error: mismatched input '<EOF>' expecting {'[', ']', '{', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | [\n | .^"],
  ["operand at the start of a map", "{", "ERROR: <input>:1:2: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | {\n | .^"],
  ["operand at the start of an index", "self.a[", "ERROR: <input>:1:8: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a[\n | .......^"],
  ["the ternary's colon", "self.a ? 1", "ERROR: <input>:1:11: Syntax error: mismatched input '<EOF>' expecting ':'\n | self.a ? 1\n | ..........^"],
  ["a map key's colon", "{\"a\"", "ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting ':'\n | {\"a\"\n | ....^"],
  ["a list still open", "[1, 2", "ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting {']', ','}\n | [1, 2\n | .....^"],
  ["a map still open", "{\"a\": 1", "ERROR: <input>:1:8: Syntax error: mismatched input '<EOF>' expecting {'}', ','}\n | {\"a\": 1\n | .......^"],
  ["missing ) at the end", "self.a == (1", "ERROR: <input>:1:13: Syntax error: missing ')' at '<EOF>'\n | self.a == (1\n | ............^"],
  ["missing ) of a call", "size(self.a", "ERROR: <input>:1:12: Syntax error: missing ')' at '<EOF>'\n | size(self.a\n | ...........^"],
  ["missing ] of an index", "self[0", "ERROR: <input>:1:7: Syntax error: missing ']' at '<EOF>'\n | self[0\n | ......^"],
  ["missing ] after a trailing comma", "[1,", "ERROR: <input>:1:4: Syntax error: missing ']' at '<EOF>'\n | [1,\n | ...^"],
  [") wanted inside a list", "[(1", "ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting ')'\n | [(1\n | ...^"],
  ["no viable alternative after a dot", "self.", "ERROR: <input>:1:6: Syntax error: no viable alternative at input '.'\n | self.\n | .....^"],
  ["no viable alternative after a minus", "self.a + -", "ERROR: <input>:1:11: Syntax error: no viable alternative at input '-'\n | self.a + -\n | ..........^\nERROR: <input>:1:11: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a + -\n | ..........^"],
  ["extraneous EOF after !", "!", "ERROR: <input>:1:2: Syntax error: extraneous input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | !\n | .^"],
  ["one token after a whole expression", "self.a)", "ERROR: <input>:1:7: Syntax error: extraneous input ')' expecting <EOF>\n | self.a)\n | ......^"],
  ["two tokens after a whole expression", "self.a == 1 self.b", "ERROR: <input>:1:13: Syntax error: mismatched input 'self' expecting <EOF>\n | self.a == 1 self.b\n | ............^"],
  ["a character no token starts with", "self.a # 1", "ERROR: <input>:1:8: Syntax error: token recognition error at: '#'\n | self.a # 1\n | .......^\nERROR: <input>:1:10: Syntax error: extraneous input '1' expecting <EOF>\n | self.a # 1\n | .........^"],
  ["a lone & (the lexer skips the next character too)", "self.a & self.b", "ERROR: <input>:1:8: Syntax error: token recognition error at: '& '\n | self.a & self.b\n | .......^\nERROR: <input>:1:10: Syntax error: mismatched input 'self' expecting <EOF>\n | self.a & self.b\n | .........^"],
  ["a non-ASCII character", "ü", "ERROR: <input>:1:1: Syntax error: token recognition error at: 'ü'\n | ü\n | ＾\nERROR: <input>:1:2: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | ü\n | ．^"],
  ["a string open to the end", "self.matches('^[a-z", "ERROR: <input>:1:14: Syntax error: token recognition error at: ''^[a-z'\n | self.matches('^[a-z\n | .............^\nERROR: <input>:1:20: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.matches('^[a-z\n | ...................^"],
  ["has() of an identifier, cut", "has(s", "ERROR: <input>:1:5: invalid argument to has() macro\n | has(s\n | ....^\nERROR: <input>:1:6: Syntax error: missing ')' at '<EOF>'\n | has(s\n | .....^"],
  ["has() of a selection, cut after the dot", "has(self.", "ERROR: <input>:1:5: invalid argument to has() macro\n | has(self.\n | ....^\nERROR: <input>:1:10: Syntax error: no viable alternative at input '.'\n | has(self.\n | .........^"],
  ["has() of an index, cut", "has(self.a[0", "ERROR: <input>:1:11: invalid argument to has() macro\n | has(self.a[0\n | ..........^\nERROR: <input>:1:13: Syntax error: mismatched input '<EOF>' expecting ']'\n | has(self.a[0\n | ............^"],
  ["a macro variable that is no simple name, cut", "self.all(x.y, z", "ERROR: <input>:1:11: argument must be a simple name\n | self.all(x.y, z\n | ..........^\nERROR: <input>:1:16: Syntax error: missing ')' at '<EOF>'\n | self.all(x.y, z\n | ...............^"],
  ["a ':' ANTLR conjures in the ternary", "a ? b c", "ERROR: <input>:1:7: Syntax error: missing ':' at 'c'\n | a ? b c\n | ......^"],
  ["a map entry's ':' conjured", "{'a' 1}", "ERROR: <input>:1:6: Syntax error: missing ':' at '1'\n | {'a' 1}\n | .....^"],
  ["a map's last key without ':' (the entry is dropped)", "{'a': 1, 'b'}", "ERROR: <input>:1:13: Syntax error: mismatched input '}' expecting ':'\n | {'a': 1, 'b'}\n | ............^"],
  ["two dots", "self.a..b", "ERROR: <input>:1:8: Syntax error: no viable alternative at input '..'\n | self.a..b\n | .......^"],
  ["a dot with no name before a comma", "f(self.a., 2)", "ERROR: <input>:1:10: Syntax error: no viable alternative at input '.,'\n | f(self.a., 2)\n | .........^"],
  // escapes the grammar takes and cel-go's visitor refuses (parser.unquote): reported at the literal
  ["\\u in a bytes literal (the visitor refuses it)", "b\"\\u00ff\" == b\"\"", "ERROR: <input>:1:1: unable to unescape string\n | b\"\\u00ff\" == b\"\"\n | ^"],
  ["\\U in a bytes literal", "b\"\\U000000ff\" == b\"\"", "ERROR: <input>:1:1: unable to unescape string\n | b\"\\U000000ff\" == b\"\"\n | ^"],
  ["a surrogate code point in a string", "\"\\ud800\"", "ERROR: <input>:1:1: invalid unicode code point\n | \"\\ud800\"\n | ^"],
  ["a code point past U+10FFFF", "\"\\U00110000\"", "ERROR: <input>:1:1: invalid unicode code point\n | \"\\U00110000\"\n | ^"],
  ["two bytes literals with \\u", "b\"\\u00ff\" + b\"\\u00fe\"", "ERROR: <input>:1:1: unable to unescape string\n | b\"\\u00ff\" + b\"\\u00fe\"\n | ^\nERROR: <input>:1:13: unable to unescape string\n | b\"\\u00ff\" + b\"\\u00fe\"\n | ............^"],
  ["\\u in bytes and a surrogate in a list", "[b\"\\u00ff\", \"\\ud800\"]", "ERROR: <input>:1:2: unable to unescape string\n | [b\"\\u00ff\", \"\\ud800\"]\n | .^\nERROR: <input>:1:13: invalid unicode code point\n | [b\"\\u00ff\", \"\\ud800\"]\n | ............^"],
  ["\\u in bytes, then a syntax error", "b\"\\u00ff\" +", "ERROR: <input>:1:1: unable to unescape string\n | b\"\\u00ff\" +\n | ^\nERROR: <input>:1:12: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | b\"\\u00ff\" +\n | ...........^"],
  ["a bad code point, then a syntax error", "\"\\ud800\" == 1 +", "ERROR: <input>:1:1: invalid unicode code point\n | \"\\ud800\" == 1 +\n | ^\nERROR: <input>:1:16: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | \"\\ud800\" == 1 +\n | ...............^"],
  ["\\u in bytes as has()'s argument", "has(b\"\\u00ff\")", "ERROR: <input>:1:5: unable to unescape string\n | has(b\"\\u00ff\")\n | ....^\nERROR: <input>:1:5: invalid argument to has() macro\n | has(b\"\\u00ff\")\n | ....^"],
];

// [what, expression, cel-go 0.29.2's text] for shapes outside the recorded set (test/apiserver/celsyntax output)
const MORE: readonly (readonly [string, string, string])[] = [
  // the recovery of a stray token where a closing token or a ternary's ':' is wanted (cel-go 0.29.2, test/apiserver/celsyntax)
  ["a ternary as a ternary's middle operand, at the top: the rest skipped", "self.a ? self.b ? 1 : 2 : 3", "ERROR: <input>:1:17: Syntax error: mismatched input '?' expecting ':'\n | self.a ? self.b ? 1 : 2 : 3\n | ................^"],
  ["a nested ternary in a call: the ')' conjured before the '?', then ':' expecting <EOF>", "f(self.a ? self.b ? 1 : 2 : 3)", "ERROR: <input>:1:19: Syntax error: mismatched input '?' expecting ':'\n | f(self.a ? self.b ? 1 : 2 : 3)\n | ..................^\nERROR: <input>:1:27: Syntax error: mismatched input ':' expecting <EOF>\n | f(self.a ? self.b ? 1 : 2 : 3)\n | ..........................^"],
  ["a nested ternary in a list", "[self.a ? self.b ? 1 : 2 : 3].size() > 0", "ERROR: <input>:1:18: Syntax error: mismatched input '?' expecting ':'\n | [self.a ? self.b ? 1 : 2 : 3].size() > 0\n | .................^\nERROR: <input>:1:26: Syntax error: mismatched input ':' expecting <EOF>\n | [self.a ? self.b ? 1 : 2 : 3].size() > 0\n | .........................^"],
  ["a nested ternary in a list in a call: then ':' where the call's ')' is wanted", "size([self.a ? self.b ? 1 : 2 : 3, 4]) > 0", "ERROR: <input>:1:23: Syntax error: mismatched input '?' expecting ':'\n | size([self.a ? self.b ? 1 : 2 : 3, 4]) > 0\n | ......................^\nERROR: <input>:1:31: Syntax error: mismatched input ':' expecting ')'\n | size([self.a ? self.b ? 1 : 2 : 3, 4]) > 0\n | ..............................^"],
  ["a nested ternary as a map value", "{'k': self.a ? self.b ? 1 : 2 : 3}.size() > 0", "ERROR: <input>:1:23: Syntax error: mismatched input '?' expecting ':'\n | {'k': self.a ? self.b ? 1 : 2 : 3}.size() > 0\n | ......................^\nERROR: <input>:1:31: Syntax error: mismatched input ':' expecting <EOF>\n | {'k': self.a ? self.b ? 1 : 2 : 3}.size() > 0\n | ..............................^"],
  ["a nested ternary as an index", "self.l[self.a ? self.b ? 1 : 2 : 3] > 0", "ERROR: <input>:1:24: Syntax error: mismatched input '?' expecting ':'\n | self.l[self.a ? self.b ? 1 : 2 : 3] > 0\n | .......................^\nERROR: <input>:1:32: Syntax error: mismatched input ':' expecting <EOF>\n | self.l[self.a ? self.b ? 1 : 2 : 3] > 0\n | ...............................^"],
  ["a stray literal before ')': the recovery stops at the next operator", "(self.a + 1 2) > 0", "ERROR: <input>:1:13: Syntax error: extraneous input '2' expecting ')'\n | (self.a + 1 2) > 0\n | ............^"],
  ["a stray literal before a call's ')': the recovery stops at '>'", "size(self.a 1) > 0 && true", "ERROR: <input>:1:13: Syntax error: extraneous input '1' expecting ')'\n | size(self.a 1) > 0 && true\n | ............^"],
  ["a stray name before a member call's ')'", "self.f(self.a b) == 1", "ERROR: <input>:1:15: Syntax error: extraneous input 'b' expecting ')'\n | self.f(self.a b) == 1\n | ..............^"],
  ["')' conjured before a list's ']'", "[(1]", "ERROR: <input>:1:4: Syntax error: missing ')' at ']'\n | [(1]\n | ...^"],
  ["a ']' where ')' is wanted at the top: the recovery stops at '=='", "(self.a ] == 1", "ERROR: <input>:1:9: Syntax error: mismatched input ']' expecting ')'\n | (self.a ] == 1\n | ........^"],
  ["a stray name before ')' with a member after", "f(a b).c", "ERROR: <input>:1:5: Syntax error: extraneous input 'b' expecting ')'\n | f(a b).c\n | ....^"],
  ["a stray name before ')' with an index after", "f(a b)[0]", "ERROR: <input>:1:5: Syntax error: extraneous input 'b' expecting ')'\n | f(a b)[0]\n | ....^"],
  ["a stray literal before a list's ']'", "[1, 2 3] == []", "ERROR: <input>:1:7: Syntax error: extraneous input '3' expecting {']', ','}\n | [1, 2 3] == []\n | ......^"],
  ["a stray literal before a map's '}'", "{'a': 1 2}", "ERROR: <input>:1:9: Syntax error: extraneous input '2' expecting {'}', ','}\n | {'a': 1 2}\n | ........^"],
  ["a ',' inside parentheses: skipped to the end", "(a b, c)", "ERROR: <input>:1:4: Syntax error: mismatched input 'b' expecting ')'\n | (a b, c)\n | ...^"],
  ["a stray name in parentheses in a call", "f((a b), c)", "ERROR: <input>:1:6: Syntax error: extraneous input 'b' expecting ')'\n | f((a b), c)\n | .....^"],
  ["a ':' conjured in a ternary in a call", "f(a ? b c : d)", "ERROR: <input>:1:9: Syntax error: extraneous input 'c' expecting ':'\n | f(a ? b c : d)\n | ........^"],
  ["a stray name before ')' then a member and an operator", "size(self.a b).foo > 0", "ERROR: <input>:1:13: Syntax error: extraneous input 'b' expecting ')'\n | size(self.a b).foo > 0\n | ............^"],
  ["a nested ternary in a macro's arguments", "self.a.all(x, x ? y ? 1 : 2 : 3)", "ERROR: <input>:1:21: Syntax error: mismatched input '?' expecting ':'\n | self.a.all(x, x ? y ? 1 : 2 : 3)\n | ....................^\nERROR: <input>:1:29: Syntax error: mismatched input ':' expecting <EOF>\n | self.a.all(x, x ? y ? 1 : 2 : 3)\n | ............................^"],
  ["an empty index (an editor closing the bracket)", "self.a[]", "ERROR: <input>:1:8: Syntax error: mismatched input ']' expecting {'[', '{', '(', '.', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a[]\n | .......^"],
  ["nothing after a comma in call arguments", "f(a, )", "ERROR: <input>:1:6: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | f(a, )\n | .....^"],
  ["empty parentheses", "()", "ERROR: <input>:1:2: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | ()\n | .^"],
  ["an operator where an operand is wanted, then the end: cel-go resumes at the operator", "self.all(key, 0 < in", "ERROR: <input>:1:19: Syntax error: mismatched input 'in' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.all(key, 0 < in\n | ..................^\nERROR: <input>:1:21: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.all(key, 0 < in\n | ....................^"],
  ["has() of a selection of a selection, cut after the dot: a selection, no has() error", "has(self.a.", "ERROR: <input>:1:12: Syntax error: no viable alternative at input '.'\n | has(self.a.\n | ...........^"],
  ["has() of an index, cut after the dot", "has(self[0].", "ERROR: <input>:1:9: invalid argument to has() macro\n | has(self[0].\n | ........^\nERROR: <input>:1:13: Syntax error: no viable alternative at input '.'\n | has(self[0].\n | ............^"],
  ["an operator where an operand is wanted is deleted", "1 +* 2", "ERROR: <input>:1:4: Syntax error: extraneous input '*' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 +* 2\n | ...^"],
  ["a stray comma at the start of call arguments", "f(, a)", "ERROR: <input>:1:3: Syntax error: extraneous input ',' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | f(, a)\n | ..^"],
  ["a stray colon after the ternary's ?, then the colon wanted at the end", "self.a ? : 1", "ERROR: <input>:1:10: Syntax error: extraneous input ':' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a ? : 1\n | .........^\nERROR: <input>:1:13: Syntax error: mismatched input '<EOF>' expecting ':'\n | self.a ? : 1\n | ............^"],
  ["a string cut by a line break (the lexer shows the break as it is)", "self.a == 'x\n", "ERROR: <input>:1:11: Syntax error: token recognition error at: ''x\n'\n | self.a == 'x\n | ..........^\nERROR: <input>:2:1: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | \n | ^"],
  ["a stray token before the closing parenthesis is deleted", "(a b)", "ERROR: <input>:1:4: Syntax error: extraneous input 'b' expecting ')'\n | (a b)\n | ...^"],
  ["a stray token before the closing bracket of a list", "[a b]", "ERROR: <input>:1:4: Syntax error: extraneous input 'b' expecting {']', ','}\n | [a b]\n | ...^"],
  ["a stray token where ) is wanted, skipped to the end", "f(a b c", "ERROR: <input>:1:5: Syntax error: mismatched input 'b' expecting ')'\n | f(a b c\n | ....^"],
  ["an invalid escape in a string", "'\\q' + 1", "ERROR: <input>:1:1: Syntax error: token recognition error at: ''\\q'\n | '\\q' + 1\n | ^\nERROR: <input>:1:4: Syntax error: token recognition error at: '' + 1'\n | '\\q' + 1\n | ...^\nERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | '\\q' + 1\n | ........^"],
  ["a string with a valid escape, open to the end", "self.matches('\\d", "ERROR: <input>:1:14: Syntax error: token recognition error at: ''\\d'\n | self.matches('\\d\n | .............^\nERROR: <input>:1:17: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.matches('\\d\n | ................^"],
  ["a raw string open to the end: the r is an identifier", "r'abc", "ERROR: <input>:1:2: Syntax error: token recognition error at: ''abc'\n | r'abc\n | .^"],
];

describe('celGoSyntaxErrorText', () => {
  it.each([...TABLE, ...MORE])('%s: %j', (_what, expr, want) => {
    expect(celGoSyntaxErrorText(expr)).toBe(want);
  });

  it('gives no text where it is not sure', () => {
    // a message construction, a backtick, a stray operator inside a list
    for (const expr of ['a.b{', 'self.a == `x', '[==']) expect(celGoSyntaxErrorText(expr)).toBeUndefined();
  });

  it('gives no text for a text cel-go parses, whatever the evaluator says (syntaxErrorDetail)', () => {
    expect(syntaxErrorDetail('self.a + 1', 37, 37, () => 'Unexpected token')).toBeUndefined();
  });

  it('keeps away from what cel-go before 0.23 words differently', () => {
    // a '%' in a syntax error's text went through Sprintf; a backtick was no token
    const old = { optionals: true, twoVar: false, sortBy: false, escapeTokens: false };
    expect(celGoSyntaxErrorText("self.contains('%2F", old)).toBeUndefined();
    expect(celGoSyntaxErrorText('self.a + ', old)).toBe(TABLE[0]![2]);
  });

  it('nested past cel-go\'s recursion limit (a fuzz case): no text, no stack overflow', () => {
    for (const open of ['[', '(', '{', 'a ? ']) {
      const expr = `self.a <= self.b${open.repeat(300)}`;
      expect(() => celGoSyntaxErrorText(expr)).not.toThrow();
      expect(celGoSyntaxErrorText(expr)).toBeUndefined();
    }
  });
});

describe('the CRD finding carries cel-go\'s text', () => {
  const crd = (validations: object[], dflt?: object) =>
    crdObject({
      group: 'se.crdx.test',
      schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'integer' }, o: { type: 'object', 'x-kubernetes-validations': validations, ...(dflt ? { default: dflt } : {}) } } } } },
    });
  const messages = (c: object, minor = 37) =>
    lintSources([{ path: 'crd.yaml', text: JSON.stringify(c) }], { kubeVersion: { major: 1, minor }, cel })
      .findings.filter((f) => f.server !== undefined)
      .map((f) => `${f.server!.field}: ${f.server!.message}`);
  const text = (expr: string) => TABLE.find((t) => t[1] === expr)![2];

  it('rule and messageExpression (as a 1.37 server words them)', () => {
    const m = messages(crd([{ rule: 'self.a + ' }]));
    expect(m).toHaveLength(1);
    expect(m[0]).toMatch(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[o\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: /);
    expect(m[0]!.endsWith(`: compilation failed: ${text('self.a + ')}`)).toBe(true);
    const me = messages(crd([{ rule: 'true', messageExpression: 'self.a == (1' }]));
    expect(me).toHaveLength(1);
    expect(me[0]!.endsWith(`: messageExpression compilation failed: ${text('self.a == (1')}`)).toBe(true);
  });

  it('on a 1.30 server (cel-go 0.17.8: the same text)', () => {
    const m = messages(crd([{ rule: 'self.a + ' }]), 30);
    expect(m).toHaveLength(1);
    expect(m[0]!.endsWith(`: compilation failed: ${text('self.a + ')}`)).toBe(true);
  });

  it('a text crdx does not reproduce keeps the evaluator\'s wording', () => {
    const m = messages(crd([{ rule: 'a.b{' }]));
    expect(m).toHaveLength(1);
    expect(m[0]).toContain('compilation failed: ERROR: <input>: Syntax error: ');
  });

  it('the default check (rule compile error)', () => {
    const m = messages(crd([{ rule: 'self.a + ' }], {}));
    expect(m).toHaveLength(1);
    expect(m[0]!.endsWith(`Invalid value: "object": rule compile error: compilation failed: ${text('self.a + ')}`)).toBe(true);
  });
});
