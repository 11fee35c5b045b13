/**
 * objectmeta: coercion and validation of embedded ObjectMeta/TypeMeta.
 *
 * Every expected output in CASES comes from upstream behaviour: it was produced by running the real
 * k8s.io/apiextensions-apiserver v0.36.6 `objectmeta.CoerceWithOptions` / `objectmeta.Validate` (schema built with
 * `structuralschema.NewStructural`, values decoded with apimachinery's `utiljson.Unmarshal`) on the same inputs.
 * Go iterates maps in random order, so `Coerce`'s single error (and the unknown paths gathered before it) can
 * differ between runs: `outcomes` lists every result observed over 60 runs and ours must be one of them.
 * `Validate`'s errors are compared as a multiset (their order between map keys is random upstream too).
 * Errors are [type, field, value, detail]; Required values are not compared.
 */
import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../src/crd/structural-schema.js';
import { errorText, OMIT, type FieldError } from '../../src/core/field-error.js';
import { Loc } from '../../src/core/path.js';
import { coerceObjectMeta, validateObjectMeta } from '../../src/schema/objectmeta.js';
import { parseTimeRFC3339 } from '../../src/go/time.js';

type Err = [string, string, unknown, string];
type Seg = { child: string } | { key: string } | { index: number };
interface Base {
  id: string;
  value: unknown;
  schema?: Record<string, unknown>;
  root?: boolean;
  path?: Seg[];
}
interface ValidateCase extends Base {
  mode: 'validate';
  errors: Err[];
}
interface CoerceCase extends Base {
  mode: 'coerce';
  drop: boolean;
  unknown: boolean;
  outcomes: ({ error: Err; unknown: string[] } | { value: unknown; unknown: string[] })[];
}
type Case = ValidateCase | CoerceCase;

const MSG = [
  "json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.name of type string",
  "json: cannot unmarshal number -0.5 into Go struct field ObjectMeta.generation of type int64",
  "json: cannot unmarshal number 1e+300 into Go struct field ObjectMeta.generation of type int64",
  "json: cannot unmarshal number 1.5e-7 into Go struct field ObjectMeta.generation of type int64",
  "json: cannot unmarshal string into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64",
  "Only one reference can have Controller set to true. Found \"true\" in references for Event/a and Pod/b",
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  "may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  "json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.operation of type v1.ManagedFieldsOperationType",
  "json: cannot unmarshal object into Go struct field ObjectMeta.creationTimestamp of type string",
  "json: cannot unmarshal array into Go struct field ObjectMeta.deletionTimestamp of type string",
  "parsing time \"2020-01-01T00:00:00 01:00\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \" 01:00\" as \"Z07:00\"",
  "parsing time \"2020-03-01T00:30:00+9x:99\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"+9x:99\" as \"Z07:00\"",
  "parsing time \"+020-01-01T00:00:00Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"+020-01-01T00:00:00Z\" as \"2006\"",
  "parsing time \"202a-01-01T00:00:00Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"202a-01-01T00:00:00Z\" as \"2006\"",
  "parsing time \"2020-01-01T00:00:00+01\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"+01\" as \"Z07:00\"",
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string",
  "json: cannot unmarshal number 1e+21 into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64",
] as const;

const CASES: Case[] = [
  { mode: 'validate', id: "empty-v", value: {  },
    errors: [["Required", "apiVersion", "", ""], ["Required", "kind", "", ""]] },
  { mode: 'coerce', id: "empty-c00", value: {  }, drop: false, unknown: false,
    outcomes: [{ value: {  }, unknown: [] }] },
  { mode: 'coerce', id: "empty-c11", value: {  }, drop: true, unknown: true,
    outcomes: [{ value: {  }, unknown: [] }] },
  { mode: 'validate', id: "nulls-v", value: { apiVersion: null, kind: null, metadata: null },
    errors: [["Invalid", "apiVersion", null, "must be a string"], ["Invalid", "kind", null, "must be a string"]] },
  { mode: 'coerce', id: "nulls-c00", value: { apiVersion: null, kind: null, metadata: null }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "apiVersion", null, "must be a string"], unknown: [] }, { error: ["Invalid", "kind", null, "must be a string"], unknown: [] }] },
  { mode: 'coerce', id: "nulls-c11", value: { apiVersion: null, kind: null, metadata: null }, drop: true, unknown: true,
    outcomes: [{ value: { metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "timefmt-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0000-01-01T00:00:00+01:00", deletionTimestamp: "0001-01-01T00:00:00Z", managedFields: [{ time: "0001-01-01T00:00:00Z", operation: "Apply" }, { time: "9999-12-31T23:30:00-01:00", operation: "Update" }] } },
    errors: [] },
  { mode: 'coerce', id: "timefmt-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0000-01-01T00:00:00+01:00", deletionTimestamp: "0001-01-01T00:00:00Z", managedFields: [{ time: "0001-01-01T00:00:00Z", operation: "Apply" }, { time: "9999-12-31T23:30:00-01:00", operation: "Update" }] } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "-0001-12-31T23:00:00Z", deletionTimestamp: null, managedFields: [{ operation: "Apply", time: null }, { operation: "Update", time: "10000-01-01T00:30:00Z" }] } }, unknown: [] }] },
  { mode: 'coerce', id: "timefmt-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0000-01-01T00:00:00+01:00", deletionTimestamp: "0001-01-01T00:00:00Z", managedFields: [{ time: "0001-01-01T00:00:00Z", operation: "Apply" }, { time: "9999-12-31T23:30:00-01:00", operation: "Update" }] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "-0001-12-31T23:00:00Z", deletionTimestamp: null, managedFields: [{ operation: "Apply", time: null }, { operation: "Update", time: "10000-01-01T00:30:00Z" }] } }, unknown: [] }] },
  { mode: 'validate', id: "timefrac-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0001-01-01T00:00:00.000000001Z" } },
    errors: [] },
  { mode: 'coerce', id: "timefrac-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0001-01-01T00:00:00.000000001Z" } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0001-01-01T00:00:00Z" } }, unknown: [] }] },
  { mode: 'coerce', id: "timefrac-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0001-01-01T00:00:00.000000001Z" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0001-01-01T00:00:00Z" } }, unknown: [] }] },
  { mode: 'validate', id: "zeroct-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0001-01-01T00:00:00Z", name: "a" } },
    errors: [] },
  { mode: 'coerce', id: "zeroct-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0001-01-01T00:00:00Z", name: "a" } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { name: "a" } }, unknown: [] }] },
  { mode: 'coerce', id: "zeroct-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "0001-01-01T00:00:00Z", name: "a" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { name: "a" } }, unknown: [] }] },
  { mode: 'validate', id: "hardwins-v", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5, creationTimestamp: "bad" } },
    errors: [["Invalid", "metadata", { annotations: { a: 1 }, creationTimestamp: "bad", labels: "x", name: 5 }, "parsing time \"bad\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"bad\" as \"2006\""]] },
  { mode: 'coerce', id: "hardwins-c00", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5, creationTimestamp: "bad" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { annotations: { a: 1 }, creationTimestamp: "bad", labels: "x", name: 5 }, "parsing time \"bad\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"bad\" as \"2006\""], unknown: [] }] },
  { mode: 'coerce', id: "hardwins-c01", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5, creationTimestamp: "bad" } }, drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "metadata", { annotations: { a: 1 }, creationTimestamp: "bad", labels: "x", name: 5 }, "parsing time \"bad\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"bad\" as \"2006\""], unknown: [] }] },
  { mode: 'coerce', id: "hardwins-c10", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5, creationTimestamp: "bad" } }, drop: true, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'coerce', id: "hardwins-c11", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5, creationTimestamp: "bad" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "savedfirst-v", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5 } },
    errors: [["Invalid", "metadata", { annotations: { a: 1 }, labels: "x", name: 5 }, "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type string"]] },
  { mode: 'coerce', id: "savedfirst-c00", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5 } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { annotations: { a: 1 }, labels: "x", name: 5 }, "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type string"], unknown: [] }] },
  { mode: 'coerce', id: "savedfirst-c01", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5 } }, drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "metadata", { annotations: { a: 1 }, labels: "x", name: 5 }, "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type string"], unknown: [] }] },
  { mode: 'coerce', id: "savedfirst-c10", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5 } }, drop: true, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'coerce', id: "savedfirst-c11", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { a: 1 }, labels: "x", name: 5 } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "unknownnested-v", value: { apiVersion: "v1", kind: "K", metadata: { foo: 1, ownerReferences: [{ a: 1, b: 2, apiVersion: "v1", kind: "Pod", name: "p", uid: "u" }], managedFields: [{ x: 1 }], name: 3 } },
    errors: [["Invalid", "metadata", { foo: 1, managedFields: [{ x: 1 }], name: 3, ownerReferences: [{ a: 1, apiVersion: "v1", b: 2, kind: "Pod", name: "p", uid: "u" }] }, "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"]] },
  { mode: 'coerce', id: "unknownnested-c00", value: { apiVersion: "v1", kind: "K", metadata: { foo: 1, ownerReferences: [{ a: 1, b: 2, apiVersion: "v1", kind: "Pod", name: "p", uid: "u" }], managedFields: [{ x: 1 }], name: 3 } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { foo: 1, managedFields: [{ x: 1 }], name: 3, ownerReferences: [{ a: 1, apiVersion: "v1", b: 2, kind: "Pod", name: "p", uid: "u" }] }, "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"], unknown: [] }] },
  { mode: 'coerce', id: "unknownnested-c11", value: { apiVersion: "v1", kind: "K", metadata: { foo: 1, ownerReferences: [{ a: 1, b: 2, apiVersion: "v1", kind: "Pod", name: "p", uid: "u" }], managedFields: [{ x: 1 }], name: 3 } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{  }], ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "p", uid: "u" }] } }, unknown: ["metadata.foo", "metadata.managedFields[0].x", "metadata.ownerReferences[0].a", "metadata.ownerReferences[0].b"] }] },
  { mode: 'validate', id: "unknownnested2-v", value: { apiVersion: "v1", kind: "K", metadata: { foo: 1, ownerReferences: [{ a: 1, name: 3 }], managedFields: [{ x: 1 }] } },
    errors: [["Invalid", "metadata", { foo: 1, managedFields: [{ x: 1 }], ownerReferences: [{ a: 1, name: 3 }] }, MSG[0]]] },
  { mode: 'coerce', id: "unknownnested2-c00", value: { apiVersion: "v1", kind: "K", metadata: { foo: 1, ownerReferences: [{ a: 1, name: 3 }], managedFields: [{ x: 1 }] } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { foo: 1, managedFields: [{ x: 1 }], ownerReferences: [{ a: 1, name: 3 }] }, MSG[0]], unknown: [] }] },
  { mode: 'coerce', id: "unknownnested2-c01", value: { apiVersion: "v1", kind: "K", metadata: { foo: 1, ownerReferences: [{ a: 1, name: 3 }], managedFields: [{ x: 1 }] } }, drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "metadata", { foo: 1, managedFields: [{ x: 1 }], ownerReferences: [{ a: 1, name: 3 }] }, MSG[0]], unknown: [] }] },
  { mode: 'coerce', id: "unknownnested2-c10", value: { apiVersion: "v1", kind: "K", metadata: { foo: 1, ownerReferences: [{ a: 1, name: 3 }], managedFields: [{ x: 1 }] } }, drop: true, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{  }] } }, unknown: [] }] },
  { mode: 'coerce', id: "unknownnested2-c11", value: { apiVersion: "v1", kind: "K", metadata: { foo: 1, ownerReferences: [{ a: 1, name: 3 }], managedFields: [{ x: 1 }] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{  }] } }, unknown: ["metadata.foo", "metadata.managedFields[0].x"] }] },
  { mode: 'validate', id: "caseSens-v", value: { apiVersion: "v1", kind: "K", metadata: { Name: "x", NAME: "y", Labels: { a: "b" } } },
    errors: [] },
  { mode: 'coerce', id: "caseSens-c00", value: { apiVersion: "v1", kind: "K", metadata: { Name: "x", NAME: "y", Labels: { a: "b" } } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'coerce', id: "caseSens-c01", value: { apiVersion: "v1", kind: "K", metadata: { Name: "x", NAME: "y", Labels: { a: "b" } } }, drop: false, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: ["metadata.Labels", "metadata.NAME", "metadata.Name"] }] },
  { mode: 'coerce', id: "caseSens-c10", value: { apiVersion: "v1", kind: "K", metadata: { Name: "x", NAME: "y", Labels: { a: "b" } } }, drop: true, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'coerce', id: "caseSens-c11", value: { apiVersion: "v1", kind: "K", metadata: { Name: "x", NAME: "y", Labels: { a: "b" } } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: ["metadata.Labels", "metadata.NAME", "metadata.Name"] }] },
  { mode: 'validate', id: "metaStr-v", value: { apiVersion: "v1", kind: "K", metadata: "str" },
    errors: [["Invalid", "metadata", "str", "json: cannot unmarshal string into Go value of type v1.ObjectMeta"]] },
  { mode: 'coerce', id: "metaStr-c00", value: { apiVersion: "v1", kind: "K", metadata: "str" }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", "str", "json: cannot unmarshal string into Go value of type v1.ObjectMeta"], unknown: [] }] },
  { mode: 'coerce', id: "metaStr-c01", value: { apiVersion: "v1", kind: "K", metadata: "str" }, drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "metadata", "str", "json: cannot unmarshal string into Go value of type v1.ObjectMeta"], unknown: [] }] },
  { mode: 'coerce', id: "metaStr-c10", value: { apiVersion: "v1", kind: "K", metadata: "str" }, drop: true, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: "str" }, unknown: [] }] },
  { mode: 'coerce', id: "metaStr-c11", value: { apiVersion: "v1", kind: "K", metadata: "str" }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: "str" }, unknown: [] }] },
  { mode: 'validate', id: "metaNum-v", value: { apiVersion: "v1", kind: "K", metadata: 1.5 },
    errors: [["Invalid", "metadata", 1.5, "json: cannot unmarshal number into Go value of type v1.ObjectMeta"]] },
  { mode: 'coerce', id: "metaNum-c00", value: { apiVersion: "v1", kind: "K", metadata: 1.5 }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", 1.5, "json: cannot unmarshal number into Go value of type v1.ObjectMeta"], unknown: [] }] },
  { mode: 'coerce', id: "metaNum-c11", value: { apiVersion: "v1", kind: "K", metadata: 1.5 }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: 1.5 }, unknown: [] }] },
  { mode: 'validate', id: "metaArr-v", value: { apiVersion: "v1", kind: "K", metadata: [{ name: "a" }] },
    errors: [["Invalid", "metadata", [{ name: "a" }], "json: cannot unmarshal array into Go value of type v1.ObjectMeta"]] },
  { mode: 'coerce', id: "metaArr-c00", value: { apiVersion: "v1", kind: "K", metadata: [{ name: "a" }] }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", [{ name: "a" }], "json: cannot unmarshal array into Go value of type v1.ObjectMeta"], unknown: [] }] },
  { mode: 'coerce', id: "metaArr-c01", value: { apiVersion: "v1", kind: "K", metadata: [{ name: "a" }] }, drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "metadata", [{ name: "a" }], "json: cannot unmarshal array into Go value of type v1.ObjectMeta"], unknown: [] }] },
  { mode: 'coerce', id: "metaArr-c10", value: { apiVersion: "v1", kind: "K", metadata: [{ name: "a" }] }, drop: true, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: [{ name: "a" }] }, unknown: [] }] },
  { mode: 'coerce', id: "metaArr-c11", value: { apiVersion: "v1", kind: "K", metadata: [{ name: "a" }] }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: [{ name: "a" }] }, unknown: [] }] },
  { mode: 'validate', id: "metaBool-v", value: { apiVersion: "v1", kind: "K", metadata: false },
    errors: [["Invalid", "metadata", false, "json: cannot unmarshal bool into Go value of type v1.ObjectMeta"]] },
  { mode: 'coerce', id: "metaBool-c00", value: { apiVersion: "v1", kind: "K", metadata: false }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", false, "json: cannot unmarshal bool into Go value of type v1.ObjectMeta"], unknown: [] }] },
  { mode: 'coerce', id: "metaBool-c11", value: { apiVersion: "v1", kind: "K", metadata: false }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: false }, unknown: [] }] },
  { mode: 'validate', id: "gen-v", value: { apiVersion: "v1", kind: "K", metadata: { generation: -5, deletionGracePeriodSeconds: 0 } },
    errors: [["Invalid", "metadata.generation", -5, "must be greater than or equal to 0"]] },
  { mode: 'coerce', id: "gen-c00", value: { apiVersion: "v1", kind: "K", metadata: { generation: -5, deletionGracePeriodSeconds: 0 } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { deletionGracePeriodSeconds: 0, generation: -5 } }, unknown: [] }] },
  { mode: 'coerce', id: "gen-c11", value: { apiVersion: "v1", kind: "K", metadata: { generation: -5, deletionGracePeriodSeconds: 0 } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { deletionGracePeriodSeconds: 0, generation: -5 } }, unknown: [] }] },
  { mode: 'validate', id: "genfloat-v", value: { apiVersion: "v1", kind: "K", metadata: { generation: 2 } },
    errors: [] },
  { mode: 'coerce', id: "genfloat-c00", value: { apiVersion: "v1", kind: "K", metadata: { generation: 2 } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { generation: 2 } }, unknown: [] }] },
  { mode: 'coerce', id: "genfloat-c11", value: { apiVersion: "v1", kind: "K", metadata: { generation: 2 } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { generation: 2 } }, unknown: [] }] },
  { mode: 'validate', id: "genneg05-v", value: { apiVersion: "v1", kind: "K", metadata: { generation: -0.5 } },
    errors: [["Invalid", "metadata", { generation: -0.5 }, MSG[1]]] },
  { mode: 'coerce', id: "genneg05-c00", value: { apiVersion: "v1", kind: "K", metadata: { generation: -0.5 } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { generation: -0.5 }, MSG[1]], unknown: [] }] },
  { mode: 'coerce', id: "genneg05-c11", value: { apiVersion: "v1", kind: "K", metadata: { generation: -0.5 } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "genbig-v", value: { apiVersion: "v1", kind: "K", metadata: { generation: 1e+300 } },
    errors: [["Invalid", "metadata", { generation: 1e+300 }, MSG[2]]] },
  { mode: 'coerce', id: "genbig-c00", value: { apiVersion: "v1", kind: "K", metadata: { generation: 1e+300 } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { generation: 1e+300 }, MSG[2]], unknown: [] }] },
  { mode: 'coerce', id: "genbig-c11", value: { apiVersion: "v1", kind: "K", metadata: { generation: 1e+300 } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "gensmall-v", value: { apiVersion: "v1", kind: "K", metadata: { generation: 1.5e-7 } },
    errors: [["Invalid", "metadata", { generation: 1.5e-7 }, MSG[3]]] },
  { mode: 'coerce', id: "gensmall-c00", value: { apiVersion: "v1", kind: "K", metadata: { generation: 1.5e-7 } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { generation: 1.5e-7 }, MSG[3]], unknown: [] }] },
  { mode: 'coerce', id: "gensmall-c11", value: { apiVersion: "v1", kind: "K", metadata: { generation: 1.5e-7 } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "dgpsStr-v", value: { apiVersion: "v1", kind: "K", metadata: { deletionGracePeriodSeconds: "5" } },
    errors: [["Invalid", "metadata", { deletionGracePeriodSeconds: "5" }, MSG[4]]] },
  { mode: 'coerce', id: "dgpsStr-c00", value: { apiVersion: "v1", kind: "K", metadata: { deletionGracePeriodSeconds: "5" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { deletionGracePeriodSeconds: "5" }, MSG[4]], unknown: [] }] },
  { mode: 'coerce', id: "dgpsStr-c11", value: { apiVersion: "v1", kind: "K", metadata: { deletionGracePeriodSeconds: "5" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "owners-v", value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [{ apiVersion: "/v1", kind: "Event", name: "a", uid: "u", controller: true }, { apiVersion: "v1", kind: "Pod", name: "b", uid: "u2", controller: true, blockOwnerDeletion: false }, { apiVersion: "g/", kind: "", controller: false }] } },
    errors: [["Invalid", "metadata.ownerReferences", [{ apiVersion: "/v1", kind: "Event", name: "a", uid: "u", controller: true }, { apiVersion: "v1", kind: "Pod", name: "b", uid: "u2", controller: true, blockOwnerDeletion: false }, { apiVersion: "g/", kind: "", name: "", uid: "", controller: false }], MSG[5]], ["Invalid", "metadata.ownerReferences", { apiVersion: "/v1", kind: "Event", name: "a", uid: "u", controller: true }, "/v1, Kind=Event is disallowed from being an owner"], ["Invalid", "metadata.ownerReferences.apiVersion", "g/", "version must not be empty"], ["Invalid", "metadata.ownerReferences.kind", "", "must not be empty"], ["Invalid", "metadata.ownerReferences.name", "", "must not be empty"], ["Invalid", "metadata.ownerReferences.uid", "", "must not be empty"]] },
  { mode: 'coerce', id: "owners-c00", value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [{ apiVersion: "/v1", kind: "Event", name: "a", uid: "u", controller: true }, { apiVersion: "v1", kind: "Pod", name: "b", uid: "u2", controller: true, blockOwnerDeletion: false }, { apiVersion: "g/", kind: "", controller: false }] } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [{ apiVersion: "/v1", controller: true, kind: "Event", name: "a", uid: "u" }, { apiVersion: "v1", blockOwnerDeletion: false, controller: true, kind: "Pod", name: "b", uid: "u2" }, { apiVersion: "g/", controller: false, kind: "", name: "", uid: "" }] } }, unknown: [] }] },
  { mode: 'coerce', id: "owners-c11", value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [{ apiVersion: "/v1", kind: "Event", name: "a", uid: "u", controller: true }, { apiVersion: "v1", kind: "Pod", name: "b", uid: "u2", controller: true, blockOwnerDeletion: false }, { apiVersion: "g/", kind: "", controller: false }] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [{ apiVersion: "/v1", controller: true, kind: "Event", name: "a", uid: "u" }, { apiVersion: "v1", blockOwnerDeletion: false, controller: true, kind: "Pod", name: "b", uid: "u2" }, { apiVersion: "g/", controller: false, kind: "", name: "", uid: "" }] } }, unknown: [] }] },
  { mode: 'validate', id: "ownersNullElem-v", value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [null] } },
    errors: [["Invalid", "metadata.ownerReferences.apiVersion", "", "version must not be empty"], ["Invalid", "metadata.ownerReferences.kind", "", "must not be empty"], ["Invalid", "metadata.ownerReferences.name", "", "must not be empty"], ["Invalid", "metadata.ownerReferences.uid", "", "must not be empty"]] },
  { mode: 'coerce', id: "ownersNullElem-c00", value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [null] } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [{ apiVersion: "", kind: "", name: "", uid: "" }] } }, unknown: [] }] },
  { mode: 'coerce', id: "ownersNullElem-c01", value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [null] } }, drop: false, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [{ apiVersion: "", kind: "", name: "", uid: "" }] } }, unknown: [] }] },
  { mode: 'coerce', id: "ownersNullElem-c10", value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [null] } }, drop: true, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [{ apiVersion: "", kind: "", name: "", uid: "" }] } }, unknown: [] }] },
  { mode: 'coerce', id: "ownersNullElem-c11", value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [null] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { ownerReferences: [{ apiVersion: "", kind: "", name: "", uid: "" }] } }, unknown: [] }] },
  { mode: 'validate', id: "labelsNullVal-v", value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: null, b: "c" }, annotations: {  }, finalizers: [] } },
    errors: [] },
  { mode: 'coerce', id: "labelsNullVal-c00", value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: null, b: "c" }, annotations: {  }, finalizers: [] } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: "", b: "c" } } }, unknown: [] }] },
  { mode: 'coerce', id: "labelsNullVal-c11", value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: null, b: "c" }, annotations: {  }, finalizers: [] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: "", b: "c" } } }, unknown: [] }] },
  { mode: 'validate', id: "finalizersNull-v", value: { apiVersion: "v1", kind: "K", metadata: { finalizers: [null, "orphan", "foregroundDeletion", "a/b", "-x"] } },
    errors: [["Invalid", "metadata.finalizers", "", "name part must be non-empty"], ["Invalid", "metadata.finalizers", "", MSG[6]], ["Invalid", "metadata.finalizers", "-x", MSG[6]], ["Invalid", "metadata.finalizers", ["", "orphan", "foregroundDeletion", "a/b", "-x"], "finalizer orphan and foregroundDeletion cannot be both set"]] },
  { mode: 'coerce', id: "finalizersNull-c00", value: { apiVersion: "v1", kind: "K", metadata: { finalizers: [null, "orphan", "foregroundDeletion", "a/b", "-x"] } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { finalizers: ["", "orphan", "foregroundDeletion", "a/b", "-x"] } }, unknown: [] }] },
  { mode: 'coerce', id: "finalizersNull-c11", value: { apiVersion: "v1", kind: "K", metadata: { finalizers: [null, "orphan", "foregroundDeletion", "a/b", "-x"] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { finalizers: ["", "orphan", "foregroundDeletion", "a/b", "-x"] } }, unknown: [] }] },
  { mode: 'validate', id: "annoBig-v", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { A: "x".repeat(262143), "B/C/D": "" } } },
    errors: [["Invalid", "metadata.annotations", "B/C/D", MSG[7]], ["TooLong", "metadata.annotations", "<value omitted>", "may not be more than 262144 bytes"]] },
  { mode: 'coerce', id: "annoBig-c00", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { A: "x".repeat(262143), "B/C/D": "" } } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { annotations: { A: "x".repeat(262143), "B/C/D": "" } } }, unknown: [] }] },
  { mode: 'validate', id: "annoUpper-v", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { "Example.COM/Foo": "1", "İx": "2", _a: "3" } } },
    errors: [["Invalid", "metadata.annotations", "_a", MSG[6]]] },
  { mode: 'coerce', id: "annoUpper-c00", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { "Example.COM/Foo": "1", "İx": "2", _a: "3" } } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { annotations: { "Example.COM/Foo": "1", _a: "3", "İx": "2" } } }, unknown: [] }] },
  { mode: 'coerce', id: "annoUpper-c11", value: { apiVersion: "v1", kind: "K", metadata: { annotations: { "Example.COM/Foo": "1", "İx": "2", _a: "3" } } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { annotations: { "Example.COM/Foo": "1", _a: "3", "İx": "2" } } }, unknown: [] }] },
  { mode: 'validate', id: "labelLong-v", value: { apiVersion: "v1", kind: "K", metadata: { labels: { aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: "b".repeat(64), "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp/n": "v", "/n": "v", "p/": "v" } } },
    errors: [["Invalid", "metadata.labels", "/n", "prefix part must be non-empty"], ["Invalid", "metadata.labels", "a".repeat(64), "name part must be no more than 63 bytes"], ["Invalid", "metadata.labels", "b".repeat(64), "must be no more than 63 bytes"], ["Invalid", "metadata.labels", "p/", "name part must be non-empty"], ["Invalid", "metadata.labels", "p/", MSG[6]], ["Invalid", "metadata.labels", "p".repeat(254) + "/" + "n", "prefix part must be no more than 253 bytes"]] },
  { mode: 'coerce', id: "labelLong-c00", value: { apiVersion: "v1", kind: "K", metadata: { labels: { aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: "b".repeat(64), "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp/n": "v", "/n": "v", "p/": "v" } } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { labels: { "/n": "v", aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: "b".repeat(64), "p/": "v", "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp/n": "v" } } }, unknown: [] }] },
  { mode: 'coerce', id: "labelLong-c11", value: { apiVersion: "v1", kind: "K", metadata: { labels: { aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: "b".repeat(64), "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp/n": "v", "/n": "v", "p/": "v" } } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { labels: { "/n": "v", aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: "b".repeat(64), "p/": "v", "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp/n": "v" } } }, unknown: [] }] },
  { mode: 'validate', id: "names-v", value: { apiVersion: "v1", kind: "K", metadata: { name: "..", generateName: "a%/b", namespace: "a.b" } },
    errors: [["Invalid", "metadata.generateName", "a%/b", "may not contain '%'"], ["Invalid", "metadata.generateName", "a%/b", "may not contain '/'"], ["Invalid", "metadata.name", "..", "may not be '..'"], ["Invalid", "metadata.namespace", "a.b", "must not contain dots"]] },
  { mode: 'coerce', id: "names-c00", value: { apiVersion: "v1", kind: "K", metadata: { name: "..", generateName: "a%/b", namespace: "a.b" } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { generateName: "a%/b", name: "..", namespace: "a.b" } }, unknown: [] }] },
  { mode: 'coerce', id: "names-c11", value: { apiVersion: "v1", kind: "K", metadata: { name: "..", generateName: "a%/b", namespace: "a.b" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { generateName: "a%/b", name: "..", namespace: "a.b" } }, unknown: [] }] },
  { mode: 'validate', id: "nsLong-v", value: { apiVersion: "v1", kind: "K", metadata: { name: ".", namespace: "a".repeat(64) } },
    errors: [["Invalid", "metadata.name", ".", "may not be '.'"], ["Invalid", "metadata.namespace", "a".repeat(64), "must be no more than 63 characters"]] },
  { mode: 'coerce', id: "nsLong-c00", value: { apiVersion: "v1", kind: "K", metadata: { name: ".", namespace: "a".repeat(64) } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { name: ".", namespace: "a".repeat(64) } }, unknown: [] }] },
  { mode: 'coerce', id: "nsLong-c11", value: { apiVersion: "v1", kind: "K", metadata: { name: ".", namespace: "a".repeat(64) } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { name: ".", namespace: "a".repeat(64) } }, unknown: [] }] },
  { mode: 'validate', id: "nsLongDots-v", value: { apiVersion: "v1", kind: "K", metadata: { namespace: "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a" } },
    errors: [["Invalid", "metadata.namespace", "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a", "must be no more than 63 characters"], ["Invalid", "metadata.namespace", "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a", "must not contain dots"]] },
  { mode: 'coerce', id: "nsLongDots-c00", value: { apiVersion: "v1", kind: "K", metadata: { namespace: "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a" } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { namespace: "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a" } }, unknown: [] }] },
  { mode: 'coerce', id: "nsLongDots-c11", value: { apiVersion: "v1", kind: "K", metadata: { namespace: "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { namespace: "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a" } }, unknown: [] }] },
  { mode: 'validate', id: "kinds-v", value: { apiVersion: "/v1", kind: "İnvalid" },
    errors: [] },
  { mode: 'coerce', id: "kinds-c00", value: { apiVersion: "/v1", kind: "İnvalid" }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "/v1", kind: "İnvalid" }, unknown: [] }] },
  { mode: 'coerce', id: "kinds-c11", value: { apiVersion: "/v1", kind: "İnvalid" }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "/v1", kind: "İnvalid" }, unknown: [] }] },
  { mode: 'validate', id: "kindLong-v", value: { apiVersion: "a/", kind: "K".repeat(64) },
    errors: [["Invalid", "kind", "K".repeat(64), "may have mixed case, but should otherwise match: must be no more than 63 characters"]] },
  { mode: 'coerce', id: "kindLong-c00", value: { apiVersion: "a/", kind: "K".repeat(64) }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "a/", kind: "K".repeat(64) }, unknown: [] }] },
  { mode: 'coerce', id: "kindLong-c11", value: { apiVersion: "a/", kind: "K".repeat(64) }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "a/", kind: "K".repeat(64) }, unknown: [] }] },
  { mode: 'validate', id: "kindGreek-v", value: { apiVersion: "v1", kind: "ΣΑΣ" },
    errors: [["Invalid", "kind", "ΣΑΣ", MSG[8]]] },
  { mode: 'coerce', id: "kindGreek-c00", value: { apiVersion: "v1", kind: "ΣΑΣ" }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "ΣΑΣ" }, unknown: [] }] },
  { mode: 'coerce', id: "kindGreek-c11", value: { apiVersion: "v1", kind: "ΣΑΣ" }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "ΣΑΣ" }, unknown: [] }] },
  { mode: 'validate', id: "mf-v", value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ manager: "a­b c", operation: "Apply", fieldsType: "FieldsV1", fieldsV1: { "f:a": {  } }, subresource: "x".repeat(257) }, null, { fieldsV1: null, time: null }] } },
    errors: [["Invalid", "metadata.managedFields[0].manager", "a­b c", "invalid character U+00AD (at position 1)"], ["Invalid", "metadata.managedFields[0].manager", "a­b c", "invalid character U+2028 (at position 4)"], ["Invalid", "metadata.managedFields[1].operation", "", "must be `Apply` or `Update`"], ["Invalid", "metadata.managedFields[2].operation", "", "must be `Apply` or `Update`"], ["TooLong", "metadata.managedFields[0].subresource", "<value omitted>", "may not be more than 256 bytes"]] },
  { mode: 'coerce', id: "mf-c00", value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ manager: "a­b c", operation: "Apply", fieldsType: "FieldsV1", fieldsV1: { "f:a": {  } }, subresource: "x".repeat(257) }, null, { fieldsV1: null, time: null }] } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ fieldsType: "FieldsV1", fieldsV1: { "f:a": {  } }, manager: "a­b c", operation: "Apply", subresource: "x".repeat(257) }, {  }, {  }] } }, unknown: [] }] },
  { mode: 'coerce', id: "mf-c11", value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ manager: "a­b c", operation: "Apply", fieldsType: "FieldsV1", fieldsV1: { "f:a": {  } }, subresource: "x".repeat(257) }, null, { fieldsV1: null, time: null }] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ fieldsType: "FieldsV1", fieldsV1: { "f:a": {  } }, manager: "a­b c", operation: "Apply", subresource: "x".repeat(257) }, {  }, {  }] } }, unknown: [] }] },
  { mode: 'validate', id: "mfManagerLong-v", value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ manager: "é".repeat(65), operation: "Update" }] } },
    errors: [["TooLong", "metadata.managedFields[0].manager", "<value omitted>", "may not be more than 128 bytes"]] },
  { mode: 'coerce', id: "mfManagerLong-c00", value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ manager: "é".repeat(65), operation: "Update" }] } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ manager: "é".repeat(65), operation: "Update" }] } }, unknown: [] }] },
  { mode: 'coerce', id: "mfManagerLong-c11", value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ manager: "é".repeat(65), operation: "Update" }] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ manager: "é".repeat(65), operation: "Update" }] } }, unknown: [] }] },
  { mode: 'validate', id: "mfOpNum-v", value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ operation: 5 }] } },
    errors: [["Invalid", "metadata", { managedFields: [{ operation: 5 }] }, MSG[9]]] },
  { mode: 'coerce', id: "mfOpNum-c00", value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ operation: 5 }] } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { managedFields: [{ operation: 5 }] }, MSG[9]], unknown: [] }] },
  { mode: 'coerce', id: "mfOpNum-c11", value: { apiVersion: "v1", kind: "K", metadata: { managedFields: [{ operation: 5 }] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "uidNum-v", value: { apiVersion: "v1", kind: "K", metadata: { uid: 5 } },
    errors: [["Invalid", "metadata", { uid: 5 }, "json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID"]] },
  { mode: 'coerce', id: "uidNum-c00", value: { apiVersion: "v1", kind: "K", metadata: { uid: 5 } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { uid: 5 }, "json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID"], unknown: [] }] },
  { mode: 'coerce', id: "uidNum-c11", value: { apiVersion: "v1", kind: "K", metadata: { uid: 5 } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctObj-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: {  } } },
    errors: [["Invalid", "metadata", { creationTimestamp: {  } }, MSG[10]]] },
  { mode: 'coerce', id: "ctObj-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: {  } } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: {  } }, MSG[10]], unknown: [] }] },
  { mode: 'coerce', id: "ctObj-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: {  } } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "dtArr-v", value: { apiVersion: "v1", kind: "K", metadata: { deletionTimestamp: [1] } },
    errors: [["Invalid", "metadata", { deletionTimestamp: [1] }, MSG[11]]] },
  { mode: 'coerce', id: "dtArr-c00", value: { apiVersion: "v1", kind: "K", metadata: { deletionTimestamp: [1] } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { deletionTimestamp: [1] }, MSG[11]], unknown: [] }] },
  { mode: 'coerce', id: "dtArr-c11", value: { apiVersion: "v1", kind: "K", metadata: { deletionTimestamp: [1] } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctControl-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00Z\n" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00Z\n" }, "parsing time \"2020-01-01T00:00:00Z\\x0a\": extra text: \"\\x0a\""]] },
  { mode: 'coerce', id: "ctControl-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00Z\n" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00Z\n" }, "parsing time \"2020-01-01T00:00:00Z\\x0a\": extra text: \"\\x0a\""], unknown: [] }] },
  { mode: 'coerce', id: "ctControl-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00Z\n" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctQuote-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "\"2020\\" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "\"2020\\" }, "parsing time \"\\\"2020\\\\\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\\\"2020\\\\\" as \"2006\""]] },
  { mode: 'coerce', id: "ctQuote-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "\"2020\\" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "\"2020\\" }, "parsing time \"\\\"2020\\\\\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\\\"2020\\\\\" as \"2006\""], unknown: [] }] },
  { mode: 'coerce', id: "ctQuote-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "\"2020\\" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctFFFD-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00Z�" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00Z�" }, "parsing time \"2020-01-01T00:00:00Z\\xef\\xbf\\xbd\": extra text: \"\\xef\\xbf\\xbd\""]] },
  { mode: 'coerce', id: "ctFFFD-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00Z�" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00Z�" }, "parsing time \"2020-01-01T00:00:00Z\\xef\\xbf\\xbd\": extra text: \"\\xef\\xbf\\xbd\""], unknown: [] }] },
  { mode: 'coerce', id: "ctFFFD-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00Z�" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctEmoji-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00Z😀" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00Z😀" }, "parsing time \"2020-01-01T00:00:00Z\\xf0\\x9f\\x98\\x80\": extra text: \"\\xf0\\x9f\\x98\\x80\""]] },
  { mode: 'coerce', id: "ctEmoji-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00Z😀" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00Z😀" }, "parsing time \"2020-01-01T00:00:00Z\\xf0\\x9f\\x98\\x80\": extra text: \"\\xf0\\x9f\\x98\\x80\""], unknown: [] }] },
  { mode: 'coerce', id: "ctEmoji-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00Z😀" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctTZspace-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00 01:00" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00 01:00" }, MSG[12]]] },
  { mode: 'coerce', id: "ctTZspace-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00 01:00" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00 01:00" }, MSG[12]], unknown: [] }] },
  { mode: 'coerce', id: "ctTZspace-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00 01:00" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctTZminus-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-01T00:30:00-24:00" } },
    errors: [] },
  { mode: 'coerce', id: "ctTZminus-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-01T00:30:00-24:00" } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-02T00:30:00Z" } }, unknown: [] }] },
  { mode: 'coerce', id: "ctTZminus-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-01T00:30:00-24:00" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-02T00:30:00Z" } }, unknown: [] }] },
  { mode: 'validate', id: "ctTZ60-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-01T00:30:00+00:60" } },
    errors: [] },
  { mode: 'coerce', id: "ctTZ60-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-01T00:30:00+00:60" } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-02-29T23:30:00Z" } }, unknown: [] }] },
  { mode: 'coerce', id: "ctTZ60-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-01T00:30:00+00:60" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-02-29T23:30:00Z" } }, unknown: [] }] },
  { mode: 'validate', id: "ctTZhourbad-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-01T00:30:00+9x:99" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "2020-03-01T00:30:00+9x:99" }, MSG[13]]] },
  { mode: 'coerce', id: "ctTZhourbad-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-01T00:30:00+9x:99" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "2020-03-01T00:30:00+9x:99" }, MSG[13]], unknown: [] }] },
  { mode: 'coerce', id: "ctTZhourbad-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-03-01T00:30:00+9x:99" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctLeap-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2000-02-29T23:59:59.999999999+23:59" } },
    errors: [] },
  { mode: 'coerce', id: "ctLeap-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2000-02-29T23:59:59.999999999+23:59" } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2000-02-29T00:00:59Z" } }, unknown: [] }] },
  { mode: 'coerce', id: "ctLeap-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2000-02-29T23:59:59.999999999+23:59" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2000-02-29T00:00:59Z" } }, unknown: [] }] },
  { mode: 'validate', id: "ct1900-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "1900-02-29T00:00:00Z" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "1900-02-29T00:00:00Z" }, "parsing time \"1900-02-29T00:00:00Z\": day out of range"]] },
  { mode: 'coerce', id: "ct1900-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "1900-02-29T00:00:00Z" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "1900-02-29T00:00:00Z" }, "parsing time \"1900-02-29T00:00:00Z\": day out of range"], unknown: [] }] },
  { mode: 'coerce', id: "ct1900-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "1900-02-29T00:00:00Z" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctDay0-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-00T00:00:00Z" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "2020-01-00T00:00:00Z" }, "parsing time \"2020-01-00T00:00:00Z\": day out of range"]] },
  { mode: 'coerce', id: "ctDay0-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-00T00:00:00Z" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "2020-01-00T00:00:00Z" }, "parsing time \"2020-01-00T00:00:00Z\": day out of range"], unknown: [] }] },
  { mode: 'coerce', id: "ctDay0-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-00T00:00:00Z" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctYearSign-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "+020-01-01T00:00:00Z" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "+020-01-01T00:00:00Z" }, MSG[14]]] },
  { mode: 'coerce', id: "ctYearSign-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "+020-01-01T00:00:00Z" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "+020-01-01T00:00:00Z" }, MSG[14]], unknown: [] }] },
  { mode: 'coerce', id: "ctYearSign-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "+020-01-01T00:00:00Z" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctYear3-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "202a-01-01T00:00:00Z" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "202a-01-01T00:00:00Z" }, MSG[15]]] },
  { mode: 'coerce', id: "ctYear3-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "202a-01-01T00:00:00Z" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "202a-01-01T00:00:00Z" }, MSG[15]], unknown: [] }] },
  { mode: 'coerce', id: "ctYear3-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "202a-01-01T00:00:00Z" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctMissingSec-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00Z" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00Z" }, "parsing time \"2020-01-01T00:00Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"Z\" as \":\""]] },
  { mode: 'coerce', id: "ctMissingSec-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00Z" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00Z" }, "parsing time \"2020-01-01T00:00Z\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"Z\" as \":\""], unknown: [] }] },
  { mode: 'coerce', id: "ctMissingSec-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00Z" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "ctShortTZ-v", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00+01" } },
    errors: [["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00+01" }, MSG[16]]] },
  { mode: 'coerce', id: "ctShortTZ-c00", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00+01" } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { creationTimestamp: "2020-01-01T00:00:00+01" }, MSG[16]], unknown: [] }] },
  { mode: 'coerce', id: "ctShortTZ-c11", value: { apiVersion: "v1", kind: "K", metadata: { creationTimestamp: "2020-01-01T00:00:00+01" } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "nested-v", value: { apiVersion: "v1", kind: "K", spec: { t: { kind: 1 }, l: [{ apiVersion: "a/b/c", metadata: { name: "a/b", zz: 1 } }, 5, null, {  }], m: { x: { metadata: { labels: { "-": "-" }, q: 1 } }, y: [] }, n: { metadata: { apiVersion: "v1", kind: "K", metadata: { name: "%", u: 1 } } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } },
    errors: [["Invalid", "spec.l[0].apiVersion", "a/b/c", "unexpected GroupVersion string: a/b/c"], ["Invalid", "spec.l[0].metadata.name", "a/b", "may not contain '/'"], ["Invalid", "spec.m[x].metadata.labels", "-", MSG[17]], ["Invalid", "spec.m[x].metadata.labels", "-", MSG[6]], ["Invalid", "spec.n.metadata.metadata.name", "%", "may not contain '%'"], ["Invalid", "spec.t.kind", 1, "must be a string"], ["Required", "spec.l[0].kind", "", ""], ["Required", "spec.l[3].apiVersion", "", ""], ["Required", "spec.l[3].kind", "", ""], ["Required", "spec.m[x].apiVersion", "", ""], ["Required", "spec.m[x].kind", "", ""], ["Required", "spec.t.apiVersion", "", ""]] },
  { mode: 'coerce', id: "nested-c00", value: { apiVersion: "v1", kind: "K", spec: { t: { kind: 1 }, l: [{ apiVersion: "a/b/c", metadata: { name: "a/b", zz: 1 } }, 5, null, {  }], m: { x: { metadata: { labels: { "-": "-" }, q: 1 } }, y: [] }, n: { metadata: { apiVersion: "v1", kind: "K", metadata: { name: "%", u: 1 } } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "spec.t.kind", 1, "must be a string"], unknown: [] }] },
  { mode: 'coerce', id: "nested-c01", value: { apiVersion: "v1", kind: "K", spec: { t: { kind: 1 }, l: [{ apiVersion: "a/b/c", metadata: { name: "a/b", zz: 1 } }, 5, null, {  }], m: { x: { metadata: { labels: { "-": "-" }, q: 1 } }, y: [] }, n: { metadata: { apiVersion: "v1", kind: "K", metadata: { name: "%", u: 1 } } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "spec.t.kind", 1, "must be a string"], unknown: [] }, { error: ["Invalid", "spec.t.kind", 1, "must be a string"], unknown: ["spec.l[0].metadata.zz", "spec.m[x].metadata.q", "spec.n.metadata.metadata.u"] }, { error: ["Invalid", "spec.t.kind", 1, "must be a string"], unknown: ["spec.n.metadata.metadata.u"] }, { error: ["Invalid", "spec.t.kind", 1, "must be a string"], unknown: ["spec.m[x].metadata.q", "spec.n.metadata.metadata.u"] }] },
  { mode: 'coerce', id: "nested-c10", value: { apiVersion: "v1", kind: "K", spec: { t: { kind: 1 }, l: [{ apiVersion: "a/b/c", metadata: { name: "a/b", zz: 1 } }, 5, null, {  }], m: { x: { metadata: { labels: { "-": "-" }, q: 1 } }, y: [] }, n: { metadata: { apiVersion: "v1", kind: "K", metadata: { name: "%", u: 1 } } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, drop: true, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", spec: { l: [{ apiVersion: "a/b/c", metadata: { name: "a/b" } }, 5, null, {  }], m: { x: { metadata: { labels: { "-": "-" } } }, y: [] }, n: { metadata: { apiVersion: "v1", kind: "K", metadata: { name: "%" } } }, t: {  } } }, unknown: [] }] },
  { mode: 'coerce', id: "nested-c11", value: { apiVersion: "v1", kind: "K", spec: { t: { kind: 1 }, l: [{ apiVersion: "a/b/c", metadata: { name: "a/b", zz: 1 } }, 5, null, {  }], m: { x: { metadata: { labels: { "-": "-" }, q: 1 } }, y: [] }, n: { metadata: { apiVersion: "v1", kind: "K", metadata: { name: "%", u: 1 } } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", spec: { l: [{ apiVersion: "a/b/c", metadata: { name: "a/b" } }, 5, null, {  }], m: { x: { metadata: { labels: { "-": "-" } } }, y: [] }, n: { metadata: { apiVersion: "v1", kind: "K", metadata: { name: "%" } } }, t: {  } } }, unknown: ["spec.l[0].metadata.zz", "spec.m[x].metadata.q", "spec.n.metadata.metadata.u"] }] },
  { mode: 'validate', id: "nestedNoRoot-v", value: { spec: { t: { apiVersion: "v1", kind: "K", metadata: { name: "x", extra: true, creationTimestamp: null } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, root: false,
    errors: [] },
  { mode: 'coerce', id: "nestedNoRoot-c00", value: { spec: { t: { apiVersion: "v1", kind: "K", metadata: { name: "x", extra: true, creationTimestamp: null } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, root: false, drop: false, unknown: false,
    outcomes: [{ value: { spec: { t: { apiVersion: "v1", kind: "K", metadata: { name: "x" } } } }, unknown: [] }] },
  { mode: 'coerce', id: "nestedNoRoot-c11", value: { spec: { t: { apiVersion: "v1", kind: "K", metadata: { name: "x", extra: true, creationTimestamp: null } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, root: false, drop: true, unknown: true,
    outcomes: [{ value: { spec: { t: { apiVersion: "v1", kind: "K", metadata: { name: "x" } } } }, unknown: ["spec.t.metadata.extra"] }] },
  { mode: 'validate', id: "nestedPath-v", value: { spec: { t: { metadata: { unk: 1 } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, root: false, path: [{ child: "items" }, { index: 3 }],
    errors: [["Required", "items[3].spec.t.apiVersion", "", ""], ["Required", "items[3].spec.t.kind", "", ""]] },
  { mode: 'coerce', id: "nestedPath-c00", value: { spec: { t: { metadata: { unk: 1 } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, root: false, path: [{ child: "items" }, { index: 3 }], drop: false, unknown: false,
    outcomes: [{ value: { spec: { t: { metadata: {  } } } }, unknown: [] }] },
  { mode: 'coerce', id: "nestedPath-c11", value: { spec: { t: { metadata: { unk: 1 } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { t: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }, l: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, m: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } }, f: { type: "object", additionalProperties: false }, n: { type: "object", properties: { metadata: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } }, root: false, path: [{ child: "items" }, { index: 3 }], drop: true, unknown: true,
    outcomes: [{ value: { spec: { t: { metadata: {  } } } }, unknown: ["items[3].spec.t.metadata.unk"] }] },
  { mode: 'validate', id: "keyPath-v", value: { metadata: { unk: 1, name: 1 } }, path: [{ key: "k.x" }],
    errors: [["Invalid", "[k.x].metadata", { name: 1, unk: 1 }, "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"], ["Required", "[k.x].apiVersion", "", ""], ["Required", "[k.x].kind", "", ""]] },
  { mode: 'coerce', id: "keyPath-c00", value: { metadata: { unk: 1, name: 1 } }, path: [{ key: "k.x" }], drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "[k.x].metadata", { name: 1, unk: 1 }, "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"], unknown: [] }] },
  { mode: 'coerce', id: "keyPath-c11", value: { metadata: { unk: 1, name: 1 } }, path: [{ key: "k.x" }], drop: true, unknown: true,
    outcomes: [{ value: { metadata: {  } }, unknown: ["[k.x].metadata.unk"] }] },
  { mode: 'validate', id: "metaProp-v", value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: { kind: 5 } } } }, schema: { type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } }, root: false,
    errors: [["Invalid", "metadata", { labels: { a: { kind: 5 } } }, "json: cannot unmarshal object into Go struct field ObjectMeta.labels of type string"], ["Invalid", "metadata.labels[a].kind", 5, "must be a string"], ["Required", "metadata.labels[a].apiVersion", "", ""]] },
  { mode: 'coerce', id: "metaProp-c00", value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: { kind: 5 } } } }, schema: { type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } }, root: false, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", { labels: { a: { kind: 5 } } }, "json: cannot unmarshal object into Go struct field ObjectMeta.labels of type string"], unknown: [] }] },
  { mode: 'coerce', id: "metaProp-c11", value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: { kind: 5 } } } }, schema: { type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } }, root: false, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: {  } }, unknown: [] }] },
  { mode: 'validate', id: "metaPropOk-v", value: { apiVersion: "v1", kind: "K", metadata: { name: "x", labels: { a: "b" } } }, schema: { type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } }, root: false,
    errors: [] },
  { mode: 'coerce', id: "metaPropOk-c00", value: { apiVersion: "v1", kind: "K", metadata: { name: "x", labels: { a: "b" } } }, schema: { type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } }, root: false, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: "b" }, name: "x" } }, unknown: [] }] },
  { mode: 'coerce', id: "metaPropOk-c11", value: { apiVersion: "v1", kind: "K", metadata: { name: "x", labels: { a: "b" } } }, schema: { type: "object", "x-kubernetes-embedded-resource": true, properties: { metadata: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } }, root: false, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", metadata: { labels: { a: "b" }, name: "x" } }, unknown: [] }] },
  { mode: 'validate', id: "addlTrue-v", value: { apiVersion: "v1", kind: "K", m: { x: { apiVersion: 1 } } }, schema: { type: "object", properties: { m: { type: "object", additionalProperties: true } } },
    errors: [] },
  { mode: 'coerce', id: "addlTrue-c00", value: { apiVersion: "v1", kind: "K", m: { x: { apiVersion: 1 } } }, schema: { type: "object", properties: { m: { type: "object", additionalProperties: true } } }, drop: false, unknown: false,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", m: { x: { apiVersion: 1 } } }, unknown: [] }] },
  { mode: 'coerce', id: "addlTrue-c11", value: { apiVersion: "v1", kind: "K", m: { x: { apiVersion: 1 } } }, schema: { type: "object", properties: { m: { type: "object", additionalProperties: true } } }, drop: true, unknown: true,
    outcomes: [{ value: { apiVersion: "v1", kind: "K", m: { x: { apiVersion: 1 } } }, unknown: [] }] },
  { mode: 'validate', id: "notObject-v", value: [1, 2],
    errors: [] },
  { mode: 'coerce', id: "notObject-c00", value: [1, 2], drop: false, unknown: false,
    outcomes: [{ value: [1, 2], unknown: [] }] },
  { mode: 'coerce', id: "notObject-c11", value: [1, 2], drop: true, unknown: true,
    outcomes: [{ value: [1, 2], unknown: [] }] },
  { mode: 'validate', id: "scalar-v", value: "x",
    errors: [] },
  { mode: 'coerce', id: "scalar-c00", value: "x", drop: false, unknown: false,
    outcomes: [{ value: "x", unknown: [] }] },
  { mode: 'coerce', id: "scalar-c11", value: "x", drop: true, unknown: true,
    outcomes: [{ value: "x", unknown: [] }] },
  { mode: 'validate', id: "random-r0", value: { apiVersion: "a/b/c", kind: "K".repeat(64), metadata: { selfLink: "/x", resourceVersion: "12", labels: { "/foo": "%", "a/": "A_B" }, annotations: 1.5, foo: { a: 1 } }, spec: { inner: { apiVersion: "", kind: "a%b", metadata: { creationTimestamp: "2020-01-01T1:00:00Z", deletionGracePeriodSeconds: 1, foo: "x" }, spec: { list: [{ apiVersion: "v1", metadata: {  } }, { apiVersion: "g/", kind: "A-", metadata: 1 }] } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { inner: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, properties: { spec: { type: "object", properties: { list: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } } } } },
    errors: [["Invalid", "apiVersion", "a/b/c", "unexpected GroupVersion string: a/b/c"], ["Invalid", "kind", "K".repeat(64), "may have mixed case, but should otherwise match: must be no more than 63 characters"], ["Invalid", "metadata", { annotations: 1.5, foo: { a: 1 }, labels: { "/foo": "%", "a/": "A_B" }, resourceVersion: "12", selfLink: "/x" }, MSG[18]], ["Invalid", "spec.inner.apiVersion", "", "must not be empty"], ["Invalid", "spec.inner.kind", "a%b", MSG[8]], ["Invalid", "spec.inner.spec.list[1].kind", "A-", MSG[8]], ["Invalid", "spec.inner.spec.list[1].metadata", 1, "json: cannot unmarshal number into Go value of type v1.ObjectMeta"], ["Required", "spec.inner.spec.list[0].kind", "", ""]] },
  { mode: 'coerce', id: "random-r1", value: { apiVersion: "a/b/c", kind: "K".repeat(64), metadata: { selfLink: "/x", resourceVersion: "12", labels: { "/foo": "%", "a/": "A_B" }, annotations: 1.5, foo: { a: 1 } }, spec: { inner: { apiVersion: "", kind: "a%b", metadata: { creationTimestamp: "2020-01-01T1:00:00Z", deletionGracePeriodSeconds: 1, foo: "x" }, spec: { list: [{ apiVersion: "v1", metadata: {  } }, { apiVersion: "g/", kind: "A-", metadata: 1 }] } } } }, schema: { type: "object", properties: { spec: { type: "object", properties: { inner: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, properties: { spec: { type: "object", properties: { list: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } } } } } } } }, drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "metadata", { annotations: 1.5, foo: { a: 1 }, labels: { "/foo": "%", "a/": "A_B" }, resourceVersion: "12", selfLink: "/x" }, MSG[18]], unknown: [] }, { error: ["Invalid", "spec.inner.spec.list[1].metadata", 1, "json: cannot unmarshal number into Go value of type v1.ObjectMeta"], unknown: ["spec.inner.metadata.foo"] }, { error: ["Invalid", "spec.inner.spec.list[1].metadata", 1, "json: cannot unmarshal number into Go value of type v1.ObjectMeta"], unknown: [] }] },
  { mode: 'coerce', id: "random-r3", value: { apiVersion: "g/", metadata: { uid: "abc", creationTimestamp: "2020-02-30T00:00:00Z" }, items: [1.5] }, schema: { type: "object", properties: { items: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } }, path: [{ key: "k" }], drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "[k].metadata", { creationTimestamp: "2020-02-30T00:00:00Z", uid: "abc" }, "parsing time \"2020-02-30T00:00:00Z\": day out of range"], unknown: [] }] },
  { mode: 'coerce', id: "random-r7", value: { apiVersion: "g/", kind: "Kind1", metadata: [{  }] }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", [{  }], "json: cannot unmarshal array into Go value of type v1.ObjectMeta"], unknown: [] }] },
  { mode: 'coerce', id: "random-r15", value: { apiVersion: "apps/v1", kind: "K".repeat(64), metadata: { annotations: { "foo.bar": ["x"], "/a": "%" }, ownerReferences: [{ kind: "Pod", name: "", uid: "u1", blockOwnerDeletion: true }, { apiVersion: "", kind: "Deployment", name: "b", uid: "u2", extra: 1 }, { apiVersion: "a/b/c", kind: "Event", name: "", uid: "u1", controller: false, blockOwnerDeletion: null }] } }, schema: { type: "object", properties: { metadata: { type: "object", properties: { name: { type: "string" } } } } }, drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "metadata", { annotations: { "/a": "%", "foo.bar": ["x"] }, ownerReferences: [{ blockOwnerDeletion: true, kind: "Pod", name: "", uid: "u1" }, { apiVersion: "", extra: 1, kind: "Deployment", name: "b", uid: "u2" }, { apiVersion: "a/b/c", blockOwnerDeletion: null, controller: false, kind: "Event", name: "", uid: "u1" }] }, "json: cannot unmarshal array into Go struct field ObjectMeta.annotations of type string"], unknown: [] }] },
  { mode: 'validate', id: "random-r18", value: { kind: "Ünï", metadata: { name: "foo.bar", generateName: "k8s.io/a/b", deletionGracePeriodSeconds: 1 } }, schema: { type: "object" }, path: [{ child: "spec" }, { child: "template" }],
    errors: [["Invalid", "spec.template.kind", "Ünï", MSG[8]], ["Invalid", "spec.template.metadata.generateName", "k8s.io/a/b", "may not contain '/'"], ["Required", "spec.template.apiVersion", "", ""]] },
  { mode: 'coerce', id: "random-r21", value: { apiVersion: "/v1", kind: -3, metadata: { generateName: "/a", namespace: "x/", selfLink: "/x", annotations: { a: 1 }, clusterName: 1 } }, schema: { type: "object" }, path: [{ child: "items" }, { index: 2 }], drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "items[2].kind", -3, "must be a string"], unknown: [] }, { error: ["Invalid", "items[2].metadata", { annotations: { a: 1 }, clusterName: 1, generateName: "/a", namespace: "x/", selfLink: "/x" }, "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type string"], unknown: [] }] },
  { mode: 'validate', id: "random-r24", value: { apiVersion: "/", kind: "a_b", metadata: { name: "x/", creationTimestamp: "2020-01-01T1:00:00Z", labels: { A_B: "a" }, annotations: { "k8s.io/a/b": "k8s.io/a/b", "x/": "é" } }, m: { x: { apiVersion: "/", kind: "1Kind", metadata: { labels: { foo: "foo.bar", "foo.bar": "a/", orphan: "Foo" }, Name: "x" } } } }, schema: { type: "object", properties: { m: { type: "object", additionalProperties: true } } },
    errors: [["Invalid", "kind", "a_b", MSG[8]], ["Invalid", "metadata.annotations", "k8s.io/a/b", MSG[7]], ["Invalid", "metadata.annotations", "x/", "name part must be non-empty"], ["Invalid", "metadata.annotations", "x/", MSG[6]], ["Invalid", "metadata.name", "x/", "may not contain '/'"]] },
  { mode: 'coerce', id: "random-r27", value: { apiVersion: "/v1", metadata: "x", items: [] }, schema: { type: "object", properties: { items: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } }, drop: false, unknown: false,
    outcomes: [{ error: ["Invalid", "metadata", "x", "json: cannot unmarshal string into Go value of type v1.ObjectMeta"], unknown: [] }] },
  { mode: 'validate', id: "random-r30", value: { kind: "Kind1", metadata: { generation: 1, annotations: { a_b: "İ", "/foo": "Event" }, spec: { a: 1 } }, byName: { a: { apiVersion: "a/b/c", kind: "K".repeat(64) }, b: "str" } }, schema: { type: "object", properties: { byName: { type: "object", additionalProperties: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } },
    errors: [["Invalid", "byName[a].apiVersion", "a/b/c", "unexpected GroupVersion string: a/b/c"], ["Invalid", "byName[a].kind", "K".repeat(64), "may have mixed case, but should otherwise match: must be no more than 63 characters"], ["Invalid", "metadata.annotations", "/foo", "prefix part must be non-empty"], ["Required", "apiVersion", "", ""]] },
  { mode: 'validate', id: "random-r46", value: { kind: "K".repeat(64), metadata: { namespace: 1, deletionGracePeriodSeconds: 1e+21 }, items: [{ kind: "", metadata: { name: "1abc" } }] }, schema: { type: "object", properties: { items: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } },
    errors: [["Invalid", "items[0].kind", "", "must not be empty"], ["Invalid", "kind", "K".repeat(64), "may have mixed case, but should otherwise match: must be no more than 63 characters"], ["Invalid", "metadata", { deletionGracePeriodSeconds: 1e+21, namespace: 1 }, MSG[19]], ["Required", "apiVersion", "", ""], ["Required", "items[0].apiVersion", "", ""]] },
  { mode: 'coerce', id: "random-r47", value: { kind: "K".repeat(64), metadata: { namespace: 1, deletionGracePeriodSeconds: 1e+21 }, items: [{ kind: "", metadata: { name: "1abc" } }] }, schema: { type: "object", properties: { items: { type: "array", items: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } } } }, drop: false, unknown: true,
    outcomes: [{ error: ["Invalid", "metadata", { deletionGracePeriodSeconds: 1e+21, namespace: 1 }, MSG[19]], unknown: [] }] },
];

function canon(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(canon);
  // a Go struct (go/json.ts structOrdered) compares by its fields
  if (v instanceof Map) return canon(Object.fromEntries(v));
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, canon(o[k])]));
  }
  return v;
}

function toErr(e: FieldError): Err {
  return [e.type, e.field, e.type === 'Required' || e.value === OMIT ? '' : canon(e.value), e.detail];
}

function locOf(path: Seg[] | undefined): Loc {
  let l = new Loc('', []);
  for (const s of path ?? []) {
    if ('child' in s) l = l.child(s.child);
    else if ('key' in s) l = l.key(s.key);
    else l = l.index(s.index);
  }
  return l;
}

const key = (v: unknown): string => JSON.stringify(canon(v));

describe('objectmeta agrees with upstream (Go-verified cases)', () => {
  for (const c of CASES) {
    it(`${c.mode} ${c.id}`, () => {
      const before = key(c.value);
      if (c.mode === 'validate') {
        const got = validateObjectMeta(locOf(c.path), c.value, c.schema && buildStructural(c.schema), c.root ?? true, 36).map(toErr).map(key).sort();
        expect(got).toEqual(c.errors.map((e) => key([e[0], e[1], canon(e[2]), e[3]])).sort());
      } else {
        const r = coerceObjectMeta(locOf(c.path), c.value, c.schema && buildStructural(c.schema), c.root ?? true, {
          dropInvalidFields: c.drop,
          returnUnknownFieldPaths: c.unknown,
        });
        const got = key(r.error ? { error: toErr(r.error), unknown: r.unknownFieldPaths } : { value: r.value, unknown: r.unknownFieldPaths });
        expect(c.outcomes.map(key)).toContain(got);
      }
      expect(key(c.value)).toBe(before); // pure
    });
  }
});

describe('objectmeta details', () => {
  const root = new Loc('', []);

  it('caps strict unknown-field errors at 100 per decoding (upstream: u000..u099 of 120)', () => {
    const metadata: Record<string, unknown> = { name: 'n' };
    for (let i = 0; i < 120; i++) metadata[`u${String(i).padStart(3, '0')}`] = i;
    const r = coerceObjectMeta(root, { apiVersion: 'v1', kind: 'K', metadata }, undefined, true, {
      dropInvalidFields: false,
      returnUnknownFieldPaths: true,
    });
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ apiVersion: 'v1', kind: 'K', metadata: { name: 'n' } });
    expect(r.unknownFieldPaths).toHaveLength(100);
    expect(r.unknownFieldPaths[0]).toBe('metadata.u000');
    expect(r.unknownFieldPaths[99]).toBe('metadata.u099');
  });

  it('points at the offending value in the manifest', () => {
    const v = {
      apiVersion: 'v1',
      metadata: {
        name: 'a/b',
        labels: { '-x': 'ok', y: '-' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p' }],
        finalizers: ['ok', 'a/b/c'],
      },
    };
    const errs = validateObjectMeta(new Loc('', ['items', 0]), v, undefined, true, 36);
    expect(errs.map((e) => [e.field, e.type === 'Required' ? '' : e.value, e.at, e.atKey === true])).toEqual([
      ['kind', '', ['items', 0, 'kind'], true],
      ['metadata.name', 'a/b', ['items', 0, 'metadata', 'name'], false],
      ['metadata.labels', '-x', ['items', 0, 'metadata', 'labels', '-x'], true],
      ['metadata.labels', '-', ['items', 0, 'metadata', 'labels', 'y'], false],
      ['metadata.ownerReferences.uid', '', ['items', 0, 'metadata', 'ownerReferences', 0, 'uid'], true],
      ['metadata.finalizers', 'a/b/c', ['items', 0, 'metadata', 'finalizers', 1], false],
    ]);

    const r = coerceObjectMeta(root, { kind: 'K', metadata: { labels: { a: 'b' }, ownerReferences: [{ name: 1 }] } }, undefined, true, {
      dropInvalidFields: false,
      returnUnknownFieldPaths: false,
    });
    expect(r.error?.at).toEqual(['metadata', 'ownerReferences', 0, 'name']);
    expect(errorText(r.error!)).toBe(
      'metadata: Invalid value: {"labels":{"a":"b"},"ownerReferences":[{"name":1}]}: json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.name of type string',
    );
  });

  it('parses timestamps like time.Parse(time.RFC3339) (upstream texts)', () => {
    expect(parseTimeRFC3339('2020-01-01T00:00:00z')).toEqual({
      error: 'parsing time "2020-01-01T00:00:00z" as "2006-01-02T15:04:05Z07:00": cannot parse "z" as "Z07:00"',
    });
    expect(parseTimeRFC3339('é2020')).toEqual({
      error: 'parsing time "\\xc3\\xa92020" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa92020" as "2006"',
    });
    expect(parseTimeRFC3339('2020-13-01T00:00:00Z')).toEqual({ error: 'parsing time "2020-13-01T00:00:00Z": month out of range' });
    expect(parseTimeRFC3339('1970-01-01T1:00:00,5+01:00')).toEqual({ sec: 0, nsec: 500000000 });
  });
});

describe('coerceObjectMeta copies the object as runtime.DeepCopyJSONValue does', () => {
  it('keeps a __proto__ member (the copy it used before set the prototype and lost the member)', () => {
    const value = JSON.parse('{"apiVersion":"v1","kind":"K","metadata":{"name":"a"},"spec":{"__proto__":{"a":1},"b":2}}') as Record<string, unknown>;
    const r = coerceObjectMeta(new Loc('', []), value, undefined, true, { dropInvalidFields: true, returnUnknownFieldPaths: false });
    expect(r.error).toBeUndefined();
    const spec = (r.value as { spec: Record<string, unknown> }).spec;
    expect(Object.keys(spec)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
    expect(spec['__proto__']).toEqual({ a: 1 });
  });
});
