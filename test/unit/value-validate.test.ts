/**
 * validateValue / validateSchema / validateListTypes against the real API server's behaviour.
 *
 * Every expectation in CASES was checked against the upstream Go code itself
 * (k8s.io/apiextensions-apiserver v0.36.6 `validation.ValidateCustomResource` with
 * `NewSchemaValidatorForVersion`, `Structural.ToKubeOpenAPI` for defaults, and
 * `listtype.ValidateListSetsAndMaps`; kube-openapi 43fb72c5454a; Go 1.26), compared as multisets because Go
 * visits sibling properties in random order. `source` names the upstream test or the code the case exercises.
 */
import { describe, expect, it } from 'vitest';
import { OMIT, errorText, type FieldError } from '../../src/core/field-error.js';
import { Loc } from '../../src/core/path.js';
import type { ServerErrorType } from '../../src/core/types.js';
import {
  checkFormat,
  goJSON,
  validateListTypes,
  validateSchema,
  validateValue,
  type ValueValidateOptions,
} from '../../src/schema/value-validate.js';
import { buildStructural } from '../../src/crd/structural-schema.js';

type Want = readonly [ServerErrorType, string, unknown, string];

interface Case {
  readonly name: string;
  readonly source: string;
  /** Run validateListTypes instead of validateSchema. */
  readonly listTypes?: boolean;
  /** The server field path the validation starts from ('' = nil). */
  readonly loc?: string;
  readonly opts?: ValueValidateOptions;
  readonly schema: Record<string, unknown>;
  readonly value: unknown;
  readonly want: readonly Want[];
}

function summarize(errs: readonly FieldError[]): Want[] {
  return errs.map((e) => [e.type, e.field, e.value, e.detail]);
}

const CASES: readonly Case[] = [
  {
    name: "!nullable object field rejects string",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"!nullable\"",
    schema: {"type":"object","properties":{"field":{"type":"object","nullable":false}}},
    value: {"field":"foo"},
    want: [
      ["TypeInvalid", "field", "string", "field in body must be of type object: \"string\""],
    ],
  },
  {
    name: "!nullable object field rejects integer",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"!nullable\"",
    schema: {"type":"object","properties":{"field":{"type":"object","nullable":false}}},
    value: {"field":42},
    want: [
      ["TypeInvalid", "field", "integer", "field in body must be of type object: \"integer\""],
    ],
  },
  {
    name: "!nullable object field rejects boolean",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"!nullable\"",
    schema: {"type":"object","properties":{"field":{"type":"object","nullable":false}}},
    value: {"field":true},
    want: [
      ["TypeInvalid", "field", "boolean", "field in body must be of type object: \"boolean\""],
    ],
  },
  {
    name: "!nullable object field rejects number",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"!nullable\"",
    schema: {"type":"object","properties":{"field":{"type":"object","nullable":false}}},
    value: {"field":1.2},
    want: [
      ["TypeInvalid", "field", "number", "field in body must be of type object: \"number\""],
    ],
  },
  {
    name: "!nullable object field rejects array",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"!nullable\"",
    schema: {"type":"object","properties":{"field":{"type":"object","nullable":false}}},
    value: {"field":[]},
    want: [
      ["TypeInvalid", "field", "array", "field in body must be of type object: \"array\""],
    ],
  },
  {
    name: "!nullable object field rejects null",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"!nullable\"",
    schema: {"type":"object","properties":{"field":{"type":"object","nullable":false}}},
    value: {"field":null},
    want: [
      ["TypeInvalid", "field", "null", "field in body must be of type object: \"null\""],
    ],
  },
  {
    name: "nullable object field accepts null",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"nullable\"",
    schema: {"type":"object","properties":{"field":{"type":"object","nullable":true}}},
    value: {"field":null},
    want: [],
  },
  {
    name: "nullable object field rejects a string",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"nullable\"",
    schema: {"type":"object","properties":{"field":{"type":"object","nullable":true}}},
    value: {"field":"foo"},
    want: [
      ["TypeInvalid", "field", "string", "field in body must be of type object: \"string\""],
    ],
  },
  {
    name: "nullable without type accepts anything",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"nullable and no type\"",
    schema: {"type":"object","properties":{"field":{"nullable":true}}},
    value: {"field":[1.2]},
    want: [],
  },
  {
    name: "int-or-string rejects null",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"x-kubernetes-int-or-string\"",
    schema: {"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true}}},
    value: {"field":null},
    want: [
      ["TypeInvalid", "field", "null", "field in body must be of type integer,string: \"null\""],
    ],
  },
  {
    name: "int-or-string rejects boolean",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"x-kubernetes-int-or-string\"",
    schema: {"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true}}},
    value: {"field":true},
    want: [
      ["TypeInvalid", "field", "boolean", "field in body must be of type integer,string: \"boolean\""],
    ],
  },
  {
    name: "int-or-string rejects number",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"x-kubernetes-int-or-string\"",
    schema: {"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true}}},
    value: {"field":1.2},
    want: [
      ["TypeInvalid", "field", "number", "field in body must be of type integer,string: \"number\""],
    ],
  },
  {
    name: "int-or-string rejects object",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"x-kubernetes-int-or-string\"",
    schema: {"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true}}},
    value: {"field":{}},
    want: [
      ["TypeInvalid", "field", "object", "field in body must be of type integer,string: \"object\""],
    ],
  },
  {
    name: "int-or-string rejects array",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"x-kubernetes-int-or-string\"",
    schema: {"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true}}},
    value: {"field":[]},
    want: [
      ["TypeInvalid", "field", "array", "field in body must be of type integer,string: \"array\""],
    ],
  },
  {
    name: "int-or-string accepts 42",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"x-kubernetes-int-or-string\"",
    schema: {"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true}}},
    value: {"field":42},
    want: [],
  },
  {
    name: "int-or-string accepts \"foo\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"x-kubernetes-int-or-string\"",
    schema: {"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true}}},
    value: {"field":"foo"},
    want: [],
  },
  {
    name: "nullable int-or-string accepts null",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"nullable and x-kubernetes-int-or-string\"",
    schema: {"type":"object","properties":{"field":{"nullable":true,"x-kubernetes-int-or-string":true}}},
    value: {"field":null},
    want: [],
  },
  {
    name: "int-or-string with anyOf: boolean",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"nullable, x-kubernetes-int-or-string and user-provided anyOf\"",
    schema: {"type":"object","properties":{"field":{"nullable":true,"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}},
    value: {"field":true},
    want: [
      ["TypeInvalid", "field", "boolean", "field in body must be of type integer,string: \"boolean\""],
      ["Invalid", "<nil>", "", "\"field\" must validate at least one schema (anyOf)"],
      ["TypeInvalid", "field", "boolean", "field in body must be of type integer: \"boolean\""],
    ],
  },
  {
    name: "int-or-string with anyOf: 1.2 (range check of the integer branch)",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"nullable, x-kubernetes-int-or-string and user-provided anyOf\"",
    schema: {"type":"object","properties":{"field":{"nullable":true,"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}},
    value: {"field":1.2},
    want: [
      ["TypeInvalid", "field", "number", "field in body must be of type integer,string: \"number\""],
      ["Invalid", "<nil>", "", "\"field\" must validate at least one schema (anyOf)"],
      ["TypeInvalid", "field", "number", "field in body must be of type integer: \"number\""],
      ["Invalid", "<nil>", "", "Checked value must be of type integer (default format) in field"],
    ],
  },
  {
    name: "int-or-string with anyOf: object",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"nullable, x-kubernetes-int-or-string and user-provided anyOf\"",
    schema: {"type":"object","properties":{"field":{"nullable":true,"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}},
    value: {"field":{}},
    want: [
      ["TypeInvalid", "field", "object", "field in body must be of type integer,string: \"object\""],
      ["Invalid", "<nil>", "", "\"field\" must validate at least one schema (anyOf)"],
      ["TypeInvalid", "field", "object", "field in body must be of type integer: \"object\""],
    ],
  },
  {
    name: "int-or-string with allOf(anyOf): boolean",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"nullable, x-kubernetes-int-or-string and user-provider allOf\"",
    schema: {"type":"object","properties":{"field":{"nullable":true,"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}]}}},
    value: {"field":true},
    want: [
      ["TypeInvalid", "field", "boolean", "field in body must be of type integer,string: \"boolean\""],
      ["Invalid", "<nil>", "", "\"field\" must validate at least one schema (anyOf)"],
      ["TypeInvalid", "field", "boolean", "field in body must be of type integer: \"boolean\""],
      ["Invalid", "<nil>", "", "\"field\" must validate all the schemas (allOf). None validated"],
    ],
  },
  {
    name: "int-or-string with allOf(anyOf): 1.2",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"nullable, x-kubernetes-int-or-string and user-provider allOf\"",
    schema: {"type":"object","properties":{"field":{"nullable":true,"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}]}}},
    value: {"field":1.2},
    want: [
      ["TypeInvalid", "field", "number", "field in body must be of type integer,string: \"number\""],
      ["Invalid", "<nil>", "", "\"field\" must validate at least one schema (anyOf)"],
      ["TypeInvalid", "field", "number", "field in body must be of type integer: \"number\""],
      ["Invalid", "<nil>", "", "Checked value must be of type integer (default format) in field"],
      ["Invalid", "<nil>", "", "\"field\" must validate all the schemas (allOf). None validated"],
    ],
  },
  {
    name: "invalid regex",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"invalid regex\"",
    schema: {"type":"object","properties":{"field":{"type":"string","pattern":"+"}}},
    value: {"field":"foo"},
    want: [
      ["Invalid", "field", "foo", "field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'"],
    ],
  },
  {
    name: "required field missing",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"required field\"",
    schema: {"type":"object","required":["field"],"properties":{"field":{"type":"object","required":["nested"],"properties":{"nested":{}}}}},
    value: {"test":"a"},
    want: [
      ["Required", "field", OMIT, ""],
    ],
  },
  {
    name: "required nested field missing",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"required field\"",
    schema: {"type":"object","required":["field"],"properties":{"field":{"type":"object","required":["nested"],"properties":{"nested":{}}}}},
    value: {"field":{}},
    want: [
      ["Required", "field.nested", OMIT, ""],
    ],
  },
  {
    name: "enum: required",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"enum\"",
    schema: {"type":"object","properties":{"field":{"type":"object","required":["nestedint","nestedstring"],"properties":{"nestedint":{"type":"integer","enum":[1,2]},"nestedstring":{"type":"string","enum":["a","b"]}}}}},
    value: {"field":{}},
    want: [
      ["Required", "field.nestedint", OMIT, ""],
      ["Required", "field.nestedstring", OMIT, ""],
    ],
  },
  {
    name: "enum: wrong types and values",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"enum\"",
    schema: {"type":"object","properties":{"field":{"type":"object","required":["nestedint","nestedstring"],"properties":{"nestedint":{"type":"integer","enum":[1,2]},"nestedstring":{"type":"string","enum":["a","b"]}}}}},
    value: {"field":{"nestedint":"x","nestedstring":true}},
    want: [
      ["TypeInvalid", "field.nestedint", "string", "field.nestedint in body must be of type integer: \"string\""],
      ["NotSupported", "field.nestedint", "x", "supported values: \"1\", \"2\""],
      ["TypeInvalid", "field.nestedstring", "boolean", "field.nestedstring in body must be of type string: \"boolean\""],
      ["NotSupported", "field.nestedstring", true, "supported values: \"a\", \"b\""],
    ],
  },
  {
    name: "maxProperties",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"maxProperties\"",
    schema: {"type":"object","properties":{"fieldX":{"type":"object","maxProperties":2}}},
    value: {"fieldX":{"a":true,"b":true,"c":true}},
    want: [
      ["TooMany", "fieldX", 3, "must have at most 2 items"],
    ],
  },
  {
    name: "maxItems",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"maxItems\"",
    schema: {"type":"object","properties":{"fieldX":{"type":"array","maxItems":2}}},
    value: {"fieldX":["a","b","c"]},
    want: [
      ["TooMany", "fieldX", 3, "must have at most 2 items"],
    ],
  },
  {
    name: "maxLength",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"maxLength\"",
    schema: {"type":"object","properties":{"fieldX":{"type":"string","maxLength":2}}},
    value: {"fieldX":"abc"},
    want: [
      ["TooLong", "fieldX", OMIT, "may not be more than 2 bytes"],
    ],
  },
  {
    name: "k8s-long-name",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"k8sLongName\" (compatibility version 1.34)",
    opts: { kubeMinor: 35 },
    schema: {"type":"object","properties":{"fieldX":{"type":"string","format":"k8s-long-name"}}},
    value: {"fieldX":"a.-"},
    want: [
      ["TypeInvalid", "fieldX", "a.-", "fieldX in body must be of type k8s-long-name: \"a.-\""],
    ],
  },
  {
    name: "k8s-short-name",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"k8sShortName\" (compatibility version 1.34)",
    opts: { kubeMinor: 35 },
    schema: {"type":"object","properties":{"fieldX":{"type":"string","format":"k8s-short-name"}}},
    value: {"fieldX":"a-"},
    want: [
      ["TypeInvalid", "fieldX", "a-", "fieldX in body must be of type k8s-short-name: \"a-\""],
    ],
  },
  {
    name: "numeric formats valid: minimums",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"numeric formats valid\"",
    schema: {"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},"floatSixFour":{"type":"number","format":"double"}}},
    value: {"intThirtyTwo":-2147483648,"floatThreeTwo":-3.4028234663852886e+38,"floatSixFour":-1.7976931348623157e+308},
    want: [],
  },
  {
    name: "numeric formats valid: maximums",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"numeric formats valid\"",
    schema: {"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},"floatSixFour":{"type":"number","format":"double"}}},
    value: {"intThirtyTwo":2147483647,"floatThreeTwo":3.4028234663852886e+38,"floatSixFour":1.7976931348623157e+308},
    want: [],
  },
  {
    name: "int32 overflow",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"numeric formats invalid\"",
    schema: {"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},"floatSixFour":{"type":"number","format":"double"}}},
    value: {"intThirtyTwo":2147483648},
    want: [
      ["Invalid", "<nil>", "", "Checked value must be of type integer with format int32 in intThirtyTwo"],
    ],
  },
  {
    name: "int32 overflow before 1.36 (no range check)",
    source: "kube-openapi before 1d94e88 (2026-01-09, Kubernetes 1.36): NewSchemaValidator gave the number validator no type or format",
    opts: { kubeMinor: 35 },
    schema: {"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"field":{"type":"integer","maximum":10}}},
    value: {"intThirtyTwo":2147483648,"field":-9223372036854776000},
    want: [
      ["TypeInvalid", "field", "number", "field in body must be of type integer: \"number\""],
    ],
  },
  {
    name: "int32 underflow",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"numeric formats invalid\"",
    schema: {"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},"floatSixFour":{"type":"number","format":"double"}}},
    value: {"intThirtyTwo":-2147483649},
    want: [
      ["Invalid", "<nil>", "", "Checked value must be of type integer with format int32 in intThirtyTwo"],
    ],
  },
  {
    name: "int64 overflow (a float64)",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"numeric formats invalid\"",
    schema: {"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},"floatSixFour":{"type":"number","format":"double"}}},
    value: {"intSixtyFour":10145709240540254000},
    want: [
      ["TypeInvalid", "intSixtyFour", "float64", "intSixtyFour in body must be of type int64: \"float64\""],
      ["Invalid", "<nil>", "", "Checked value must be of type integer with format int64 in intSixtyFour"],
    ],
  },
  {
    name: "float32 overflow",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"numeric formats invalid\"",
    schema: {"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},"floatSixFour":{"type":"number","format":"double"}}},
    value: {"floatThreeTwo":3.7431058130238175e+38},
    want: [
      ["Invalid", "<nil>", "", "Checked value must be of type number with format float in floatThreeTwo"],
    ],
  },
  {
    name: "float32 underflow",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource \"numeric formats invalid\"",
    schema: {"type":"object","properties":{"intThirtyTwo":{"type":"integer","format":"int32"},"intSixtyFour":{"type":"integer","format":"int64"},"floatThreeTwo":{"type":"number","format":"float"},"floatSixFour":{"type":"number","format":"double"}}},
    value: {"floatThreeTwo":-3.7431058130238175e+38},
    want: [
      ["Invalid", "<nil>", "", "Checked value must be of type number with format float in floatThreeTwo"],
    ],
  },
  {
    name: "items in object",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestItemsProperty",
    schema: {"properties":{"spec":{"properties":{"replicas":{"type":"integer"}}}}},
    value: {"spec":{"replicas":1,"items":["1","2"]}},
    want: [],
  },
  {
    name: "items in array",
    source: "apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestItemsProperty",
    schema: {"properties":{"secrets":{"type":"array","items":{"type":"string"}}}},
    value: {"secrets":["1","2"]},
    want: [],
  },
  {
    name: "V67 /status validation is relative to the status schema",
    source: "runtime-semantics.md §10.11 V67 (subresources_test.go TestValidateOnlyStatus)",
    loc: "status",
    schema: {"type":"object","properties":{"num":{"type":"integer","maximum":10}}},
    value: {"num":15,"replicas":7},
    want: [
      ["Invalid", "status.num", 15, "num in body should be less than or equal to 10"],
    ],
  },
  {
    name: "§7 schema error next to the scale check",
    source: "runtime-semantics.md §7 (spec.replicas minimum 0)",
    schema: {"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer","minimum":0}}}}},
    value: {"spec":{"replicas":-1}},
    want: [
      ["Invalid", "spec.replicas", -1, "spec.replicas in body should be greater than or equal to 0"],
    ],
  },
  {
    name: "V78 metadata.name pattern of the author applies",
    source: "runtime-semantics.md §10.11 V78 (validator_test.go TestValidateCustomResourceName)",
    schema: {"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","pattern":"^[A-Za-z]+$"}}}}},
    value: {"metadata":{"name":"foo123"}},
    want: [
      ["Invalid", "metadata.name", "foo123", "metadata.name in body should match '^[A-Za-z]+$'"],
    ],
  },
  {
    name: "V78 metadata.name matching the pattern",
    source: "runtime-semantics.md §10.11 V78",
    schema: {"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","pattern":"^[A-Za-z]+$"}}}}},
    value: {"metadata":{"name":"foo"}},
    want: [],
  },
  {
    name: "V53 set without duplicates",
    source: "runtime-semantics.md §10.8 V53 (status_strategy_test.go TestStatusStrategyValidateUpdate)",
    listTypes: true,
    schema: {"type":"object","properties":{"numArray":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object"}}}},
    value: {"numArray":[1,3]},
    want: [],
  },
  {
    name: "V54 duplicate in a set",
    source: "runtime-semantics.md §10.8 V54 (status_strategy_test.go TestStatusStrategyValidateUpdate)",
    listTypes: true,
    schema: {"type":"object","properties":{"numArray":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object"}}}},
    value: {"numArray":[1,1]},
    want: [
      ["Duplicate", "numArray[1]", 1, ""],
    ],
  },
  {
    name: "TV66 c: default of the wrong type",
    source: "crd-validation.md §21 TV66 / §9 D4 (defaulting/validation.go)",
    loc: "spec.validation.openAPIV3Schema.properties[c].default",
    opts: { structural: true },
    schema: {"type":"object","properties":{"foo":{"type":"string"}}},
    value: {"foo":42},
    want: [
      ["TypeInvalid", "spec.validation.openAPIV3Schema.properties[c].default.foo", "integer", "foo in body must be of type string: \"integer\""],
    ],
  },
  {
    name: "TV66 d: default not matching the pattern",
    source: "crd-validation.md §21 TV66 / §9 D4",
    loc: "spec.validation.openAPIV3Schema.properties[d].default",
    opts: { structural: true },
    schema: {"type":"object","properties":{"good":{"type":"string","pattern":"a"},"bad":{"type":"string","pattern":"b"}}},
    value: {"good":"a","bad":"a"},
    want: [
      ["Invalid", "spec.validation.openAPIV3Schema.properties[d].default.bad", "a", "bad in body should match 'b'"],
    ],
  },
  {
    name: "D4 scalar default: the name is empty",
    source: "crd-validation.md §9 D4 (ValidateCustomResource(pth.Child(\"default\"), …))",
    loc: "spec.validation.openAPIV3Schema.properties[n].default",
    opts: { structural: true },
    schema: {"type":"integer","minimum":10},
    value: 5,
    want: [
      ["Invalid", "spec.validation.openAPIV3Schema.properties[n].default", 5, " in body should be greater than or equal to 10"],
    ],
  },
  {
    name: "D4 default: int-or-string is not type-checked (ToKubeOpenAPI has no type)",
    source: "apiextensions-apiserver pkg/apiserver/schema/kubeopenapi.go ToKubeOpenAPI",
    loc: "spec.validation.openAPIV3Schema.properties[n].default",
    opts: { structural: true },
    schema: {"x-kubernetes-int-or-string":true},
    value: true,
    want: [],
  },
  {
    name: "D4 default: formats are not stripped",
    source: "apiextensions-apiserver defaulting/validation.go (NewSchemaValidatorFromOpenAPI, no format post-processing)",
    loc: "spec.validation.openAPIV3Schema.properties[n].default",
    opts: { structural: true },
    schema: {"type":"integer","format":"date"},
    value: 5,
    want: [],
  },
  {
    name: "type integer accepts an integral float64 but flags the range check",
    source: "kube-openapi pkg/validation/validate/type.go typeValidator",
    schema: {"type":"object","properties":{"field":{"type":"integer"}}},
    value: {"field":1.5},
    want: [
      ["TypeInvalid", "field", "number", "field in body must be of type integer: \"number\""],
      ["Invalid", "<nil>", "", "Checked value must be of type integer (default format) in field"],
    ],
  },
  {
    name: "format on another type: \"must be of type int32: float64\"",
    source: "kube-openapi pkg/validation/validate/type.go typeValidator",
    schema: {"type":"object","properties":{"field":{"type":"integer","format":"int32"}}},
    value: {"field":1.5},
    want: [
      ["TypeInvalid", "field", "float64", "field in body must be of type int32: \"float64\""],
      ["Invalid", "<nil>", "", "Checked value must be of type integer with format int32 in field"],
    ],
  },
  {
    name: "format without type on a number",
    source: "kube-openapi pkg/validation/validate/type.go typeValidator (format kept for type \"\")",
    schema: {"type":"object","properties":{"field":{"format":"date"}}},
    value: {"field":1},
    want: [
      ["TypeInvalid", "field", "int64", "field in body must be of type date: \"int64\""],
    ],
  },
  {
    name: "format without type on a boolean",
    source: "kube-openapi pkg/validation/validate/type.go typeValidator",
    schema: {"type":"object","properties":{"field":{"format":"date"}}},
    value: {"field":true},
    want: [
      ["TypeInvalid", "field", "", "field in body must be of type date: \"\""],
    ],
  },
  {
    name: "format without type on an object",
    source: "kube-openapi pkg/validation/validate/type.go typeValidator",
    schema: {"type":"object","properties":{"field":{"format":"date"}}},
    value: {"field":{}},
    want: [
      ["TypeInvalid", "field", "", "field in body must be of type date: \"\""],
    ],
  },
  {
    name: "string with a format accepts an array",
    source: "kube-openapi pkg/validation/validate/type.go typeValidator",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"date"}}},
    value: {"field":[]},
    want: [],
  },
  {
    name: "string with a format rejects an integer",
    source: "kube-openapi pkg/validation/validate/type.go typeValidator",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"date"}}},
    value: {"field":5},
    want: [
      ["TypeInvalid", "field", "int64", "field in body must be of type date: \"int64\""],
    ],
  },
  {
    name: "format stripped for a mismatched type (integer/date)",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt StripUnsupportedFormatsPostProcessorForVersion",
    schema: {"type":"object","properties":{"field":{"type":"integer","format":"date"}}},
    value: {"field":"x"},
    want: [
      ["TypeInvalid", "field", "string", "field in body must be of type integer: \"string\""],
    ],
  },
  {
    name: "format stripped for boolean",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt StripUnsupportedFormatsPostProcessorForVersion",
    schema: {"type":"object","properties":{"field":{"type":"boolean","format":"date"}}},
    value: {"field":5},
    want: [
      ["TypeInvalid", "field", "integer", "field in body must be of type boolean: \"integer\""],
    ],
  },
  {
    name: "number accepts an integer",
    source: "kube-openapi pkg/validation/validate/type.go typeValidator",
    schema: {"type":"object","properties":{"field":{"type":"number"}}},
    value: {"field":3},
    want: [],
  },
  {
    name: "null in a nested property without type",
    source: "kube-openapi pkg/validation/validate/validator.go SchemaValidator.Validate (nil data)",
    schema: {"type":"object","properties":{"field":{}}},
    value: {"field":null},
    want: [],
  },
  {
    name: "maxLength counts characters",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"string","maxLength":3}}},
    value: {"field":"😀😀😀"},
    want: [],
  },
  {
    name: "maxLength 3 exceeded by 4 characters",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"string","maxLength":3}}},
    value: {"field":"äöüß"},
    want: [
      ["TooLong", "field", OMIT, "may not be more than 3 bytes"],
    ],
  },
  {
    name: "maxLength 1 says \"byte\"",
    source: "apimachinery field.TooLong",
    schema: {"type":"object","properties":{"field":{"type":"string","maxLength":1}}},
    value: {"field":"ab"},
    want: [
      ["TooLong", "field", OMIT, "may not be more than 1 byte"],
    ],
  },
  {
    name: "minLength",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"string","minLength":3}}},
    value: {"field":"ab"},
    want: [
      ["Invalid", "field", "ab", "field in body should be at least 3 chars long"],
    ],
  },
  {
    name: "maxLength stops the string checks",
    source: "kube-openapi pkg/validation/validate/validator.go stringValidator",
    schema: {"type":"object","properties":{"field":{"type":"string","maxLength":3,"minLength":5,"pattern":"z"}}},
    value: {"field":"abcd"},
    want: [
      ["TooLong", "field", OMIT, "may not be more than 3 bytes"],
    ],
  },
  {
    name: "minLength stops the string checks",
    source: "kube-openapi pkg/validation/validate/validator.go stringValidator",
    schema: {"type":"object","properties":{"field":{"type":"string","maxLength":3,"minLength":5,"pattern":"z"}}},
    value: {"field":"ab"},
    want: [
      ["Invalid", "field", "ab", "field in body should be at least 5 chars long"],
    ],
  },
  {
    name: "pattern is unanchored",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"string","pattern":"b"}}},
    value: {"field":"abc"},
    want: [],
  },
  {
    name: "pattern mismatch",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"string","pattern":"^a$"}}},
    value: {"field":"ab"},
    want: [
      ["Invalid", "field", "ab", "field in body should match '^a$'"],
    ],
  },
  {
    name: "pattern with unclosed group",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"string","pattern":"(a"}}},
    value: {"field":"foo"},
    want: [
      ["Invalid", "field", "foo", "field in body should match '(a, but pattern is invalid: error parsing regexp: missing closing ): `(a`'"],
    ],
  },
  {
    name: "pattern with a Unicode class",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"string","pattern":"^\\p{Greek}+$"}}},
    value: {"field":"abc"},
    want: [
      ["Invalid", "field", "abc", "field in body should match '^\\p{Greek}+$'"],
    ],
  },
  {
    name: "enum: 1.5 matches 1 (float64 converted to int64)",
    source: "kube-openapi pkg/validation/validate/validator.go basicCommonValidator",
    schema: {"type":"object","properties":{"field":{"enum":[1]}}},
    value: {"field":1.5},
    want: [],
  },
  {
    name: "enum: 97 matches \"a\" (int64 converted to string)",
    source: "kube-openapi pkg/validation/validate/validator.go basicCommonValidator",
    schema: {"type":"object","properties":{"field":{"enum":["a"]}}},
    value: {"field":97},
    want: [],
  },
  {
    name: "enum: \"1\" does not match 1",
    source: "kube-openapi pkg/validation/validate/validator.go basicCommonValidator",
    schema: {"type":"object","properties":{"field":{"enum":[1,2.5]}}},
    value: {"field":"1"},
    want: [
      ["NotSupported", "field", "1", "supported values: \"1\", \"2.5\""],
    ],
  },
  {
    name: "enum: null never matches, even nullable",
    source: "kube-openapi pkg/validation/validate/validator.go basicCommonValidator",
    schema: {"type":"object","properties":{"field":{"nullable":true,"enum":["a",null]}}},
    value: {"field":null},
    want: [
      ["NotSupported", "field", null, "supported values: \"a\", \"null\""],
    ],
  },
  {
    name: "enum: non-string values JSON-encoded in the detail",
    source: "apiextensions-apiserver validation.go kubeOpenAPIResultToFieldErrors",
    schema: {"type":"object","properties":{"field":{"enum":[1.5,{"z":"<","a":1},[1],null,true,"a\"b"]}}},
    value: {"field":false},
    want: [
      ["NotSupported", "field", false, "supported values: \"1.5\", \"{\\\"a\\\":1,\\\"z\\\":\\\"\\\\u003c\\\"}\", \"[1]\", \"null\", \"true\", \"a\\\"b\""],
    ],
  },
  {
    name: "enum: objects compare deeply",
    source: "kube-openapi pkg/validation/validate/validator.go basicCommonValidator",
    schema: {"type":"object","properties":{"field":{"enum":[{"a":1,"b":[true]}]}}},
    value: {"field":{"b":[true],"a":1}},
    want: [],
  },
  {
    name: "enum: empty enum is ignored",
    source: "kube-openapi pkg/validation/validate/validator.go basicCommonValidator",
    schema: {"type":"object","properties":{"field":{"type":"string","enum":[]}}},
    value: {"field":"x"},
    want: [],
  },
  {
    name: "minimum",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"integer","minimum":1}}},
    value: {"field":0},
    want: [
      ["Invalid", "field", 0, "field in body should be greater than or equal to 1"],
    ],
  },
  {
    name: "exclusiveMaximum",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"integer","maximum":10,"exclusiveMaximum":true}}},
    value: {"field":10},
    want: [
      ["Invalid", "field", 10, "field in body should be less than 10"],
    ],
  },
  {
    name: "exclusiveMinimum",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"integer","minimum":10,"exclusiveMinimum":true}}},
    value: {"field":10},
    want: [
      ["Invalid", "field", 10, "field in body should be greater than 10"],
    ],
  },
  {
    name: "float bound printed with %v",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"number","maximum":1000000}}},
    value: {"field":2000000.5},
    want: [
      ["Invalid", "field", 2000000.5, "field in body should be less than or equal to 1e+06"],
    ],
  },
  {
    name: "integer value compared with a truncated minimum",
    source: "kube-openapi pkg/validation/validate/values.go MinimumNativeType",
    schema: {"type":"object","properties":{"field":{"type":"number","minimum":2.5}}},
    value: {"field":2},
    want: [],
  },
  {
    name: "float value compared with the float minimum",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"number","minimum":2.5}}},
    value: {"field":2.4},
    want: [
      ["Invalid", "field", 2.4, "field in body should be greater than or equal to 2.5"],
    ],
  },
  {
    name: "integer value, maximum 1e19 converted to int64 (amd64)",
    source: "kube-openapi pkg/validation/validate/values.go MaximumNativeType",
    schema: {"type":"object","properties":{"field":{"type":"number","maximum":10000000000000000000}}},
    value: {"field":5},
    want: [
      ["Invalid", "field", 5, "field in body should be less than or equal to -9223372036854775808"],
    ],
  },
  {
    name: "maximum not an integer for type integer",
    source: "kube-openapi pkg/validation/validate/values.go IsValueValidAgainstRange",
    schema: {"type":"object","properties":{"field":{"type":"integer","maximum":1.5}}},
    value: {"field":5},
    want: [
      ["Invalid", "<nil>", "", "Maximum boundary value must be of type integer (default format) in field"],
      ["Invalid", "field", 5, "field in body should be less than or equal to 1.5"],
    ],
  },
  {
    name: "maximum outside int32 for format int32",
    source: "kube-openapi pkg/validation/validate/values.go IsValueValidAgainstRange",
    schema: {"type":"object","properties":{"field":{"type":"integer","format":"int32","maximum":3000000000}}},
    value: {"field":5},
    want: [
      ["Invalid", "<nil>", "", "Maximum boundary value must be of type integer with format int32 in field"],
    ],
  },
  {
    name: "multipleOf on integers",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"integer","multipleOf":3}}},
    value: {"field":10},
    want: [
      ["Invalid", "field", 10, "field in body should be a multiple of 3"],
    ],
  },
  {
    name: "multipleOf 0.5 truncated to 0 for an integer",
    source: "kube-openapi pkg/validation/validate/values.go MultipleOfNativeType",
    schema: {"type":"object","properties":{"field":{"type":"number","multipleOf":0.5}}},
    value: {"field":3},
    want: [
      ["Invalid", "field", 0, "factor MultipleOf declared for field must be positive: 0"],
    ],
  },
  {
    name: "multipleOf 0.5 on a float",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"number","multipleOf":0.5}}},
    value: {"field":3.25},
    want: [
      ["Invalid", "field", 3.25, "field in body should be a multiple of 0.5"],
    ],
  },
  {
    name: "multipleOf tolerance (0.1 × 3)",
    source: "kube-openapi pkg/validation/validate/values.go MultipleOf + swag.IsFloat64AJSONInteger",
    schema: {"type":"object","properties":{"field":{"type":"number","multipleOf":0.1}}},
    value: {"field":0.30000000000000004},
    want: [],
  },
  {
    name: "multipleOf 0.1 failure",
    source: "kube-openapi pkg/validation/validate/values.go",
    schema: {"type":"object","properties":{"field":{"type":"number","multipleOf":0.1}}},
    value: {"field":0.35},
    want: [
      ["Invalid", "field", 0.35, "field in body should be a multiple of 0.1"],
    ],
  },
  {
    name: "multipleOf, minimum and maximum order",
    source: "kube-openapi pkg/validation/validate/validator.go numberValidator (multipleOf, minimum, maximum)",
    schema: {"type":"object","properties":{"field":{"type":"number","multipleOf":2,"minimum":10,"maximum":0}}},
    value: {"field":5},
    want: [
      ["Invalid", "field", 5, "field in body should be a multiple of 2"],
      ["Invalid", "field", 5, "field in body should be greater than or equal to 10"],
      ["Invalid", "field", 5, "field in body should be less than or equal to 0"],
    ],
  },
  {
    name: "int-or-string has no numeric range check",
    source: "kube-openapi pkg/validation/validate/validator.go numberValidator (type ambiguous)",
    schema: {"type":"object","properties":{"field":{"x-kubernetes-int-or-string":true,"maximum":3}}},
    value: {"field":4},
    want: [
      ["Invalid", "field", 4, "field in body should be less than or equal to 3"],
    ],
  },
  {
    name: "minItems",
    source: "kube-openapi pkg/validation/validate/slice_validator.go",
    schema: {"type":"object","properties":{"field":{"type":"array","minItems":2}}},
    value: {"field":["a"]},
    want: [
      ["Invalid", "field", 1, "field in body should have at least 2 items"],
    ],
  },
  {
    name: "maxItems 1 says \"item\"",
    source: "apimachinery field.TooMany",
    schema: {"type":"object","properties":{"field":{"type":"array","maxItems":1}}},
    value: {"field":["a","b"]},
    want: [
      ["TooMany", "field", 2, "must have at most 1 item"],
    ],
  },
  {
    name: "uniqueItems",
    source: "kube-openapi pkg/validation/validate/slice_validator.go",
    schema: {"type":"object","properties":{"field":{"type":"array","uniqueItems":true}}},
    value: {"field":[{"a":1},{"a":1}]},
    want: [
      ["Invalid", "field", "", "field in body shouldn't contain duplicates"],
    ],
  },
  {
    name: "items paths",
    source: "kube-openapi pkg/validation/validate/slice_validator.go",
    schema: {"type":"object","properties":{"field":{"type":"array","items":{"type":"object","required":["name"],"properties":{"name":{"type":"string","pattern":"^a$"}}}}}},
    value: {"field":[{"name":"b"},{},{"name":"a"}]},
    want: [
      ["Invalid", "field[0].name", "b", "field[0].name in body should match '^a$'"],
      ["Required", "field[1].name", OMIT, ""],
    ],
  },
  {
    name: "minProperties",
    source: "kube-openapi pkg/validation/validate/object_validator.go",
    schema: {"type":"object","properties":{"field":{"type":"object","minProperties":2}}},
    value: {"field":{"a":1}},
    want: [
      ["Invalid", "field", 1, "field in body should have at least 2 properties"],
    ],
  },
  {
    name: "maxProperties 1 says \"item\"",
    source: "kube-openapi pkg/validation/validate/object_validator.go",
    schema: {"type":"object","properties":{"field":{"type":"object","maxProperties":1}}},
    value: {"field":{"a":1,"b":2}},
    want: [
      ["TooMany", "field", 2, "must have at most 1 item"],
    ],
  },
  {
    name: "additionalProperties schema",
    source: "kube-openapi pkg/validation/validate/object_validator.go",
    schema: {"type":"object","properties":{"field":{"type":"object","additionalProperties":{"type":"string","maxLength":1}}}},
    value: {"field":{"a":"x","b":"yy","c":1}},
    want: [
      ["TooLong", "field.b", OMIT, "may not be more than 1 byte"],
      ["TypeInvalid", "field.c", "integer", "field.c in body must be of type string: \"integer\""],
    ],
  },
  {
    name: "additionalProperties at the root keep a leading dot in the detail",
    source: "kube-openapi pkg/validation/validate/object_validator.go",
    schema: {"type":"object","additionalProperties":{"type":"string"}},
    value: {"a":1},
    want: [
      ["TypeInvalid", "a", "integer", ".a in body must be of type string: \"integer\""],
    ],
  },
  {
    name: "required at the root",
    source: "kube-openapi pkg/validation/validate/object_validator.go",
    schema: {"type":"object","required":["b","a"]},
    value: {},
    want: [
      ["Required", "b", OMIT, ""],
      ["Required", "a", OMIT, ""],
    ],
  },
  {
    name: "additionalProperties false",
    source: "kube-openapi pkg/validation/validate/object_validator.go",
    schema: {"type":"object","properties":{"field":{"type":"object","additionalProperties":false,"properties":{"a":{}}}}},
    value: {"field":{"a":1,"b":2}},
    want: [
      ["Invalid", "field", "b", "field.b in body is a forbidden property"],
    ],
  },
  {
    name: "additionalProperties false at the root",
    source: "kube-openapi pkg/validation/validate/object_validator.go",
    schema: {"type":"object","additionalProperties":false,"properties":{"a":{}}},
    value: {"a":1,"b":2},
    want: [
      ["Invalid", "<nil>", "b", ".b in body is a forbidden property"],
    ],
  },
  {
    name: "dotted property names are not escaped",
    source: "kube-openapi pkg/validation/validate/object_validator.go",
    schema: {"type":"object","properties":{"a.b":{"type":"string"}}},
    value: {"a.b":1},
    want: [
      ["TypeInvalid", "a.b", "integer", "a.b in body must be of type string: \"integer\""],
    ],
  },
  {
    name: "anyOf: errors of the branch with most successful checks",
    source: "kube-openapi pkg/validation/validate/schema_props.go",
    schema: {"type":"object","properties":{"field":{"anyOf":[{"type":"string"},{"type":"integer","minimum":5}]}}},
    value: {"field":3},
    want: [
      ["Invalid", "<nil>", "", "\"field\" must validate at least one schema (anyOf)"],
      ["Invalid", "field", 3, "field in body should be greater than or equal to 5"],
    ],
  },
  {
    name: "anyOf: no branch",
    source: "kube-openapi pkg/validation/validate/schema_props.go",
    schema: {"type":"object","properties":{"field":{"anyOf":[{"type":"string"},{"type":"integer","minimum":5}]}}},
    value: {"field":true},
    want: [
      ["Invalid", "<nil>", "", "\"field\" must validate at least one schema (anyOf)"],
      ["TypeInvalid", "field", "boolean", "field in body must be of type string: \"boolean\""],
    ],
  },
  {
    name: "anyOf on required properties",
    source: "kube-openapi pkg/validation/validate/schema_props.go",
    schema: {"type":"object","properties":{"field":{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}}},
    value: {"field":{}},
    want: [
      ["Invalid", "<nil>", "", "\"field\" must validate at least one schema (anyOf)"],
      ["Required", "field.a", OMIT, ""],
    ],
  },
  {
    name: "anyOf at the root",
    source: "kube-openapi pkg/validation/validate/schema_props.go",
    schema: {"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]},
    value: {},
    want: [
      ["Invalid", "<nil>", "", "\"\" must validate at least one schema (anyOf)"],
      ["Required", "a", OMIT, ""],
    ],
  },
  {
    name: "oneOf: none valid",
    source: "kube-openapi pkg/validation/validate/schema_props.go",
    schema: {"type":"object","properties":{"field":{"oneOf":[{"type":"string"},{"type":"integer","minimum":5}]}}},
    value: {"field":true},
    want: [
      ["Invalid", "<nil>", "", "\"field\" must validate one and only one schema (oneOf). Found none valid"],
      ["TypeInvalid", "field", "boolean", "field in body must be of type string: \"boolean\""],
    ],
  },
  {
    name: "oneOf: two valid",
    source: "kube-openapi pkg/validation/validate/schema_props.go",
    schema: {"type":"object","properties":{"field":{"type":"integer","oneOf":[{"minimum":1},{"minimum":2}]}}},
    value: {"field":3},
    want: [
      ["Invalid", "<nil>", "", "\"field\" must validate one and only one schema (oneOf). Found 2 valid alternatives"],
    ],
  },
  {
    name: "oneOf: exactly one valid",
    source: "kube-openapi pkg/validation/validate/schema_props.go",
    schema: {"type":"object","properties":{"field":{"type":"integer","oneOf":[{"minimum":1},{"minimum":2}]}}},
    value: {"field":1},
    want: [],
  },
  {
    name: "allOf: one failing",
    source: "kube-openapi pkg/validation/validate/schema_props.go",
    schema: {"type":"object","properties":{"field":{"type":"integer","allOf":[{"minimum":1},{"maximum":2}]}}},
    value: {"field":3},
    want: [
      ["Invalid", "field", 3, "field in body should be less than or equal to 2"],
      ["Invalid", "<nil>", "", "\"field\" must validate all the schemas (allOf)"],
    ],
  },
  {
    name: "allOf: none validated, identical errors reported once",
    source: "kube-openapi pkg/validation/validate/schema_props.go + result.go AddErrors",
    schema: {"type":"object","properties":{"field":{"type":"integer","allOf":[{"minimum":5},{"minimum":5}]}}},
    value: {"field":3},
    want: [
      ["Invalid", "field", 3, "field in body should be greater than or equal to 5"],
      ["Invalid", "<nil>", "", "\"field\" must validate all the schemas (allOf). None validated"],
    ],
  },
  {
    name: "not",
    source: "kube-openapi pkg/validation/validate/schema_props.go",
    schema: {"type":"object","properties":{"field":{"type":"integer","not":{"minimum":5}}}},
    value: {"field":6},
    want: [
      ["Invalid", "<nil>", "", "\"field\" must not validate the schema (not)"],
    ],
  },
  {
    name: "format date: \"2020-02-29\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"date"}}},
    value: {"field":"2020-02-29"},
    want: [],
  },
  {
    name: "format date: \"2021-02-29\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"date"}}},
    value: {"field":"2021-02-29"},
    want: [
      ["TypeInvalid", "field", "2021-02-29", "field in body must be of type date: \"2021-02-29\""],
    ],
  },
  {
    name: "format date-time: \"2020-01-01T23:59:59.5+01:00\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"date-time"}}},
    value: {"field":"2020-01-01T23:59:59.5+01:00"},
    want: [],
  },
  {
    name: "format date-time: \"2020-01-01T24:00:00Z\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"date-time"}}},
    value: {"field":"2020-01-01T24:00:00Z"},
    want: [
      ["TypeInvalid", "field", "2020-01-01T24:00:00Z", "field in body must be of type date-time: \"2020-01-01T24:00:00Z\""],
    ],
  },
  {
    name: "format duration: \"1h30m\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"duration"}}},
    value: {"field":"1h30m"},
    want: [],
  },
  {
    name: "format duration: \"1x\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"duration"}}},
    value: {"field":"1x"},
    want: [
      ["TypeInvalid", "field", "1x", "field in body must be of type duration: \"1x\""],
    ],
  },
  {
    name: "format duration: \"3 days\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"duration"}}},
    value: {"field":"3 days"},
    want: [],
  },
  {
    name: "format duration: \"\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"duration"}}},
    value: {"field":""},
    want: [
      ["TypeInvalid", "field", "", "field in body must be of type duration: \"\""],
    ],
  },
  {
    name: "format byte: \"YWI=\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"byte"}}},
    value: {"field":"YWI="},
    want: [],
  },
  {
    name: "format byte: \"\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"byte"}}},
    value: {"field":""},
    want: [
      ["TypeInvalid", "field", "", "field in body must be of type byte: \"\""],
    ],
  },
  {
    name: "format uuid: \"123E4567-e89b-12d3-a456-426614174000\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"uuid"}}},
    value: {"field":"123E4567-e89b-12d3-a456-426614174000"},
    want: [],
  },
  {
    name: "format uuid: \"123e4567-e89b-12d3-a456-42661417400\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"uuid"}}},
    value: {"field":"123e4567-e89b-12d3-a456-42661417400"},
    want: [
      ["TypeInvalid", "field", "123e4567-e89b-12d3-a456-42661417400", "field in body must be of type uuid: \"123e4567-e89b-12d3-a456-42661417400\""],
    ],
  },
  {
    name: "format uuid4: \"123e4567-e89b-42d3-a456-426614174000\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"uuid4"}}},
    value: {"field":"123e4567-e89b-42d3-a456-426614174000"},
    want: [],
  },
  {
    name: "format uuid4: \"123e4567-e89b-42d3-c456-426614174000\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"uuid4"}}},
    value: {"field":"123e4567-e89b-42d3-c456-426614174000"},
    want: [
      ["TypeInvalid", "field", "123e4567-e89b-42d3-c456-426614174000", "field in body must be of type uuid4: \"123e4567-e89b-42d3-c456-426614174000\""],
    ],
  },
  {
    name: "format email: \"Jane <jane@example.com>\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"email"}}},
    value: {"field":"Jane <jane@example.com>"},
    want: [],
  },
  {
    name: "format email: \"jane@\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"email"}}},
    value: {"field":"jane@"},
    want: [
      ["TypeInvalid", "field", "jane@", "field in body must be of type email: \"jane@\""],
    ],
  },
  {
    name: "format hostname: \"exämple.com\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"hostname"}}},
    value: {"field":"exämple.com"},
    want: [],
  },
  {
    name: "format hostname: \"-a.com\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"hostname"}}},
    value: {"field":"-a.com"},
    want: [
      ["TypeInvalid", "field", "-a.com", "field in body must be of type hostname: \"-a.com\""],
    ],
  },
  {
    name: "format ipv4: \"010.1.2.3\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"ipv4"}}},
    value: {"field":"010.1.2.3"},
    want: [],
  },
  {
    name: "format ipv4: \"::1\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"ipv4"}}},
    value: {"field":"::1"},
    want: [
      ["TypeInvalid", "field", "::1", "field in body must be of type ipv4: \"::1\""],
    ],
  },
  {
    name: "format ipv4: \"::ffff:1.2.3.4\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"ipv4"}}},
    value: {"field":"::ffff:1.2.3.4"},
    want: [],
  },
  {
    name: "format ipv4: \"256.1.1.1\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"ipv4"}}},
    value: {"field":"256.1.1.1"},
    want: [
      ["TypeInvalid", "field", "256.1.1.1", "field in body must be of type ipv4: \"256.1.1.1\""],
    ],
  },
  {
    name: "format ipv6: \"::ffff:1.2.3.4\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"ipv6"}}},
    value: {"field":"::ffff:1.2.3.4"},
    want: [],
  },
  {
    name: "format ipv6: \"fe80::1%eth0\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"ipv6"}}},
    value: {"field":"fe80::1%eth0"},
    want: [
      ["TypeInvalid", "field", "fe80::1%eth0", "field in body must be of type ipv6: \"fe80::1%eth0\""],
    ],
  },
  {
    name: "format cidr: \"10.0.0.0/8\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"cidr"}}},
    value: {"field":"10.0.0.0/8"},
    want: [],
  },
  {
    name: "format cidr: \"10.0.0.0/33\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"cidr"}}},
    value: {"field":"10.0.0.0/33"},
    want: [
      ["TypeInvalid", "field", "10.0.0.0/33", "field in body must be of type cidr: \"10.0.0.0/33\""],
    ],
  },
  {
    name: "format mac: \"0011.2233.4455\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"mac"}}},
    value: {"field":"0011.2233.4455"},
    want: [],
  },
  {
    name: "format mac: \"00:11:22:33:44\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"mac"}}},
    value: {"field":"00:11:22:33:44"},
    want: [
      ["TypeInvalid", "field", "00:11:22:33:44", "field in body must be of type mac: \"00:11:22:33:44\""],
    ],
  },
  {
    name: "format uri: \"mailto:a@b\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"uri"}}},
    value: {"field":"mailto:a@b"},
    want: [],
  },
  {
    name: "format uri: \"rel/path\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"uri"}}},
    value: {"field":"rel/path"},
    want: [
      ["TypeInvalid", "field", "rel/path", "field in body must be of type uri: \"rel/path\""],
    ],
  },
  {
    name: "format uri: \"ftp://h:1:2/\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"uri"}}},
    value: {"field":"ftp://h:1:2/"},
    want: [],
  },
  {
    name: "format uri: \"http://h:1:2/\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"uri"}}},
    value: {"field":"http://h:1:2/"},
    want: [
      ["TypeInvalid", "field", "http://h:1:2/", "field in body must be of type uri: \"http://h:1:2/\""],
    ],
  },
  {
    name: "format isbn: \"978-0321751041\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"isbn"}}},
    value: {"field":"978-0321751041"},
    want: [],
  },
  {
    name: "format isbn: \"0321751044\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"isbn"}}},
    value: {"field":"0321751044"},
    want: [
      ["TypeInvalid", "field", "0321751044", "field in body must be of type isbn: \"0321751044\""],
    ],
  },
  {
    name: "format creditcard: \"4111 1111 1111 1111\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"creditcard"}}},
    value: {"field":"4111 1111 1111 1111"},
    want: [],
  },
  {
    name: "format creditcard: \"4111111111111112\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"creditcard"}}},
    value: {"field":"4111111111111112"},
    want: [
      ["TypeInvalid", "field", "4111111111111112", "field in body must be of type creditcard: \"4111111111111112\""],
    ],
  },
  {
    name: "format ssn: \"123-45-6789\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"ssn"}}},
    value: {"field":"123-45-6789"},
    want: [],
  },
  {
    name: "format ssn: \"123-456789\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"ssn"}}},
    value: {"field":"123-456789"},
    want: [
      ["TypeInvalid", "field", "123-456789", "field in body must be of type ssn: \"123-456789\""],
    ],
  },
  {
    name: "format hexcolor: \"#ABC\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"hexcolor"}}},
    value: {"field":"#ABC"},
    want: [],
  },
  {
    name: "format hexcolor: \"#abcd\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"hexcolor"}}},
    value: {"field":"#abcd"},
    want: [
      ["TypeInvalid", "field", "#abcd", "field in body must be of type hexcolor: \"#abcd\""],
    ],
  },
  {
    name: "format rgbcolor: \"rgb(255, 0, 0)\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"rgbcolor"}}},
    value: {"field":"rgb(255, 0, 0)"},
    want: [],
  },
  {
    name: "format rgbcolor: \"rgb(256,0,0)\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"rgbcolor"}}},
    value: {"field":"rgb(256,0,0)"},
    want: [
      ["TypeInvalid", "field", "rgb(256,0,0)", "field in body must be of type rgbcolor: \"rgb(256,0,0)\""],
    ],
  },
  {
    name: "format bsonobjectid: \"507f1f77bcf86cd799439011\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"bsonobjectid"}}},
    value: {"field":"507f1f77bcf86cd799439011"},
    want: [],
  },
  {
    name: "format bsonobjectid: \"507f1f77bcf86cd79943901\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"bsonobjectid"}}},
    value: {"field":"507f1f77bcf86cd79943901"},
    want: [
      ["TypeInvalid", "field", "507f1f77bcf86cd79943901", "field in body must be of type bsonobjectid: \"507f1f77bcf86cd79943901\""],
    ],
  },
  {
    name: "format k8s-short-name: \"a-b\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"k8s-short-name"}}},
    value: {"field":"a-b"},
    want: [],
  },
  {
    name: "format k8s-short-name: \"A\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"k8s-short-name"}}},
    value: {"field":"A"},
    want: [
      ["TypeInvalid", "field", "A", "field in body must be of type k8s-short-name: \"A\""],
    ],
  },
  {
    name: "format k8s-long-name: \"a.b-c\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"k8s-long-name"}}},
    value: {"field":"a.b-c"},
    want: [],
  },
  {
    name: "format k8s-long-name: \"a..b\"",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"k8s-long-name"}}},
    value: {"field":"a..b"},
    want: [
      ["TypeInvalid", "field", "a..b", "field in body must be of type k8s-long-name: \"a..b\""],
    ],
  },
  {
    name: "unknown format ignored",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"type":"string","format":"unknown"}}},
    value: {"field":"x"},
    want: [],
  },
  {
    name: "k8s-short-name not checked by a 1.34 server",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt (introduced at compatibility version 1.34)",
    opts: { kubeMinor: 34 },
    schema: {"type":"object","properties":{"field":{"type":"string","format":"k8s-short-name"}}},
    value: {"field":"A"},
    want: [],
  },
  {
    name: "format on a non-string value is not checked",
    source: "apiextensions-apiserver pkg/apiserver/validation/formats.go + kube-openapi strfmt",
    schema: {"type":"object","properties":{"field":{"format":"date","type":"string"}}},
    value: {"field":["x"]},
    want: [],
  },
  {
    name: "set list with multiple duplicated items",
    source: "apiextensions-apiserver pkg/apiserver/schema/listtype/validation_test.go \"set list with multiple duplicated items\"",
    listTypes: true,
    schema: {"type":"object","properties":{"array":{"type":"array","x-kubernetes-list-type":"set"}}},
    value: {"array":["a","a","b","c","d","c"]},
    want: [
      ["Duplicate", "array[1]", "a", ""],
      ["Duplicate", "array[5]", "c", ""],
    ],
  },
  {
    name: "set list with compound items",
    source: "apiextensions-apiserver pkg/apiserver/schema/listtype/validation_test.go \"set list with compound map items\"",
    listTypes: true,
    schema: {"type":"object","properties":{"integers":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}},"booleans":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"boolean"}},"nil":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string","nullable":true}},"maps":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object"}},"arrays":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"array"}}}},
    value: {"integers":[1,2,1],"booleans":[false,true,true],"nil":["a",null,null],"maps":[{"a":"b"},{"a":"c"},{"a":"b"},{"a":"c"},{"a":"c"}],"arrays":[[],["a"],["b"],["a"]]},
    want: [
      ["Duplicate", "arrays[3]", ["a"], ""],
      ["Duplicate", "booleans[2]", true, ""],
      ["Duplicate", "integers[2]", 1, ""],
      ["Duplicate", "maps[2]", {"a":"b"}, ""],
      ["Duplicate", "maps[3]", {"a":"c"}, ""],
      ["Duplicate", "nil[2]", null, ""],
    ],
  },
  {
    name: "set items compare as JSON with sorted keys",
    source: "apiextensions-apiserver pkg/apiserver/schema/listtype/validation_test.go",
    listTypes: true,
    schema: {"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object"}}}},
    value: {"l":[{"a":1,"b":2},{"b":2,"a":1}]},
    want: [
      ["Duplicate", "l[1]", {"b":2,"a":1}, ""],
    ],
  },
  {
    name: "map list with compound keys",
    source: "apiextensions-apiserver pkg/apiserver/schema/listtype/validation_test.go \"map list with compound map items\"",
    listTypes: true,
    schema: {"type":"object","properties":{"one key":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a"],"items":{"type":"object"}},"two keys":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","b"],"items":{"type":"object"}},"undefined key":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","b"],"items":{"type":"object"}},"compound key":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a"],"items":{"type":"object"}},"nil item":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a"],"items":{"type":"object"}}}},
    value: {"one key":[{"a":"0","c":"2"},{"a":"1","c":"1"},{"a":"1","c":"2"},{}],"two keys":[{"a":"1","b":"1","c":"1"},{"a":"1","b":"2","c":"2"},{"a":"1","b":"2","c":"3"},{}],"undefined key":[{"a":"1","b":"1","c":"1"},{"a":"1","c":"2"},{"a":"1","c":"3"},{}],"compound key":[{"a":[],"c":"1"},{"a":null,"c":"1"},{"a":["a"],"c":"1"},{"a":["a",42],"c":"2"},{"a":["a",42],"c":["3"]}],"nil item":[null,{"a":"0","c":"1"},{"a":null},{"c":"1"}]},
    want: [
      ["Duplicate", "compound key[4]", {"a":["a",42]}, ""],
      ["Duplicate", "nil item[3]", {}, ""],
      ["Duplicate", "one key[2]", {"a":"1"}, ""],
      ["Duplicate", "two keys[2]", {"a":"1","b":"2"}, ""],
      ["Duplicate", "undefined key[2]", {"a":"1"}, ""],
    ],
  },
  {
    name: "map list with a non-object item",
    source: "apiextensions-apiserver pkg/apiserver/schema/listtype/validation_test.go",
    listTypes: true,
    schema: {"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object"}}}},
    value: {"l":[{"k":"a"},"x",1]},
    want: [
      ["Invalid", "l[1]", "x", "must be an object for an array of list-type map"],
    ],
  },
  {
    name: "sets under additionalProperties use [key]",
    source: "apiextensions-apiserver pkg/apiserver/schema/listtype/validation_test.go",
    listTypes: true,
    schema: {"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}}}}},
    value: {"m":{"a.b":[3,3]}},
    want: [
      ["Duplicate", "m[a.b][1]", 3, ""],
    ],
  },
  {
    name: "sets under items",
    source: "apiextensions-apiserver pkg/apiserver/schema/listtype/validation_test.go",
    listTypes: true,
    schema: {"type":"object","properties":{"o":{"type":"array","items":{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}}}}}}},
    value: {"o":[{"l":[1,1]},{"l":[2]}]},
    want: [
      ["Duplicate", "o[0].l[1]", 1, ""],
    ],
  },
  {
    name: "list types with a base path",
    source: "apiextensions-apiserver status_strategy.go",
    listTypes: true,
    loc: "status",
    schema: {"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}}}},
    value: {"l":[1,1]},
    want: [
      ["Duplicate", "status.l[1]", 1, ""],
    ],
  },
];

describe('value validation matches the API server', () => {
  it.each(CASES)('$name — $source', (c) => {
    const loc = new Loc(c.loc ?? '', []);
    const errs = c.listTypes === true ? validateListTypes(c.value, buildStructural(c.schema), loc) : validateSchema(c.value, buildStructural(c.schema), loc, c.opts);
    expect(summarize(errs)).toEqual(c.want);
  });
});

describe('JSON numbers', () => {
  const nf = {
    type: 'object',
    properties: { i32: { type: 'integer', format: 'int32' }, i64: { type: 'integer', format: 'int64' }, n: { type: 'number' } },
  };
  it('accepts int64 extremes given as bigint (TestValidateCustomResource "numeric formats valid")', () => {
    const loc = new Loc('', []);
    expect(validateSchema({ i64: 9223372036854775807n }, buildStructural(nf), loc)).toEqual([]);
    expect(validateSchema({ i64: -9223372036854775808n }, buildStructural(nf), loc)).toEqual([]);
  });
  it('treats an integral number as int64 (kubectl sends 1.0 as 1) and 2^63 as float64', () => {
    const loc = new Loc('', []);
    expect(validateSchema({ i32: 1.0 }, buildStructural(nf), loc)).toEqual([]);
    expect(summarize(validateSchema({ i64: 2 ** 63 }, buildStructural(nf), loc))).toEqual([
      ['TypeInvalid', 'i64', 'float64', 'i64 in body must be of type int64: "float64"'],
      ['Invalid', '<nil>', '', 'Checked value must be of type integer with format int64 in i64'],
    ]);
  });
  it('keeps an int64 beyond 2^53 exact in messages (values.go MaximumInt)', () => {
    const s = { type: 'integer', maximum: 10 };
    expect(summarize(validateSchema(9007199254740993n, buildStructural(s), new Loc('x', ['x'])))).toEqual([
      ['Invalid', 'x', 9007199254740993n, ' in body should be less than or equal to 10'],
    ]);
  });
});

describe('validateValue', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 65535 } } },
          },
        },
      },
    },
  };
  const value = { spec: { ports: [{ name: 'a', port: 80 }, { name: 'a', port: 70000 }, { port: 1 }] } };

  it('reports schema errors first, then list-type duplicates (strategy.go Validate order)', () => {
    expect(summarize(validateValue(value, buildStructural(schema), new Loc('', [])))).toEqual([
      ['Invalid', 'spec.ports[1].port', 70000, 'spec.ports[1].port in body should be less than or equal to 65535'],
      ['Required', 'spec.ports[2].name', OMIT, ''],
      ['Duplicate', 'spec.ports[1]', { name: 'a' }, ''],
    ]);
  });
  it('can leave the list types out (defaults are only checked by ValidateCustomResource)', () => {
    expect(validateValue(value, buildStructural(schema), new Loc('', []), { listTypes: false }).map((e) => e.type)).toEqual(['Invalid', 'Required']);
  });
  it('points each error at the value in the manifest', () => {
    const errs = validateValue(value, buildStructural(schema), new Loc('', []));
    expect(errs.map((e) => [e.at, e.atKey ?? false])).toEqual([
      [['spec', 'ports', 1, 'port'], false],
      [['spec', 'ports', 2, 'name'], true],
      [['spec', 'ports', 1], false],
    ]);
  });
  it('points forbidden properties at the key and composite errors at the value', () => {
    const s = { type: 'object', properties: { o: { type: 'object', additionalProperties: false, anyOf: [{ required: ['x'] }] } } };
    const errs = validateSchema({ o: { y: 1 } }, buildStructural(s), new Loc('', []));
    expect(errs.map((e) => [e.field, e.at, e.atKey ?? false])).toEqual([
      ['<nil>', ['o'], false],
      ['o.x', ['o', 'x'], true],
      ['o', ['o', 'y'], true],
    ]);
  });
  it('renders like the server (field.Error.Error())', () => {
    const s = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } };
    expect(validateValue({ spec: { replicas: 'x' } }, buildStructural(s), new Loc('', [])).map(errorText)).toEqual([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
  });
  it('uses the base path for errors without a name', () => {
    const s = { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] };
    expect(summarize(validateValue({}, buildStructural(s), new Loc('status', ['status'])))).toEqual([
      ['Invalid', 'status', '', '"" must validate at least one schema (anyOf)'],
      ['Required', 'status.a', OMIT, ''],
    ]);
  });
  it('does not validate apiVersion, kind or metadata of embedded resources beyond the schema', () => {
    const s = {
      type: 'object',
      properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
    };
    expect(validateValue({ e: { kind: 42, metadata: 'x' } }, buildStructural(s), new Loc('', []))).toEqual([]);
  });
});

describe('format support by server version (formats.go supportedVersionedFormats, compatibility version = minor - 1)', () => {
  it.each([
    [33, 'k8s-short-name', 'A', undefined],
    [34, 'k8s-short-name', 'A', false],
    [36, 'k8s-long-name', 'a..b', false],
    [36, 'date-time', '2020-01-01T00:00:00Z', true],
    [36, 'datetime', '2020-01-01t00:00:00z', true],
    [36, 'uuid-4', '123e4567-e89b-42d3-a456-426614174000', true],
    [36, 'int32', '1', undefined],
    [36, 'email', 'a@b', true],
    [36, 'duration', 'abc 5s xyz', true],
    [36, 'ipv4', '::ffff:1.2.3.4', true],
  ] as const)('kube 1.%i %s %j → %s', (minor, format, s, ok) => {
    expect(checkFormat(format, s, minor)).toBe(ok);
  });
});

describe('goJSON (encoding/json.Marshal of decoded JSON)', () => {
  it('sorts keys and escapes like Go', () => {
    expect(goJSON({ z: '<&>', a: [1, 1.5, null, true, '\u2028'] })).toBe('{"a":[1,1.5,null,true,"\\u2028"],"z":"\\u003c\\u0026\\u003e"}');
  });
});
