/**
 * The server's field-path syntax (apiextensions cel/validation.go ValidFieldPath): a quoted key is
 * unescaped by unescapeSingleQuote, which knows \a \b \f \n \r \t \v \' \\ and nothing else. The
 * verdicts on CRDs are replayed against a real server by the cel-rules fixture
 * field-path-escapes.yaml (lint conformance); the error texts, which no response carries for a rule's
 * fieldPath, are read from the source.
 */
import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../src/crd/structural-schema.js';
import { validFieldPath } from '../../src/schema/field-path.js';

const schema = buildStructural({
  type: 'object',
  properties: { a: { type: 'integer' }, "it's": { type: 'integer' }, 'q"q': { type: 'integer' }, 'x\\\ny': { type: 'integer' }, 'tab\there': { type: 'integer' } },
});

describe('validFieldPath: quoted keys', () => {
  it.each([
    ["['a']", ['a']],
    ["['it\\'s']", ["it's"]],
    ["['tab\\there']", ['tab\there']],
    // Go's `.` matches no newline: a backslash before one stays as it is
    ["['x\\\ny']", ['x\\\ny']],
  ])('%j resolves to %j', (path, segments) => {
    const r = validFieldPath(path, schema);
    expect(r.error).toBeUndefined();
    expect(r.segments).toEqual(segments);
  });

  it.each([
    ["['\\x61']", 'invalid string literal: invalid escape char \\x'],
    ["['\\u0061']", 'invalid string literal: invalid escape char \\u'],
    ["['q\\\"q']", 'invalid string literal: invalid escape char \\"'],
    // every escape is replaced; the error is the last unknown one's
    ["['\\q\\n\\z']", 'invalid string literal: invalid escape char \\z'],
    ["['\\😀']", 'invalid string literal: invalid escape char \\😀'],
    ["['\\a']", 'does not refer to a valid field'],
  ])('%j: %s', (path, error) => {
    expect(validFieldPath(path, schema).error).toBe(error);
  });

  it('the same errors before the first step of a nil schema (the server panics only at a step)', () => {
    expect(validFieldPath("['\\x61']", null).error).toBe('invalid string literal: invalid escape char \\x');
    expect(validFieldPath("['a']", null).panics).toBe(true);
  });
});
