import type { FieldError } from '../core/field-error.js';
import type { FieldValidation } from '../core/field-validation.js';
import type { JsonPath, ServerResponse, Severity } from '../core/types.js';
import type { Lookup } from '../cr/catalog.js';
import type { CreateResult } from '../cr/create.js';
import type { NextWrite } from '../cr/next-write.js';
import type { CrdUpdate } from '../crd/installed.js';
import type { Crd } from '../crd/model.js';
import type { Manifest } from '../manifest/parse.js';
import type { SchemaAnalysis } from '../schema/analyze.js';

export interface RuleMeta<M extends string> {
  /** problem: the server rejects or never serves the CRD; suggestion: accepted but useless or dangerous. */
  readonly type: 'problem' | 'suggestion';
  /** true: reproduces the API server's own verdict; false: our advice. */
  readonly serverFaithful: boolean;
  readonly defaultSeverity: Severity;
  /** Checks whose default severity differs from the rule's (`--rule ID` and `--rule ID/CHECK` still override). */
  readonly checkSeverity?: Partial<Record<M, Severity>>;
  readonly docs: {
    readonly description: string;
    /** Why it matters; for advisory rules, why we warn although the server accepts. */
    readonly details: string;
    /**
     * The upstream source the behaviour comes from: `<module> <path>.go: <Func>[, <Func>]`, several
     * files separated by `; ` (advisory rules add "(not checked by the server)"); no private notes.
     */
    readonly reference: string;
  };
  readonly messages: Record<M, string>;
}

/** What a check yields: no text, no severity, no position. */
export interface Report<M extends string = string> {
  readonly messageId: M;
  readonly data?: Readonly<Record<string, string | number>>;
  /** Path inside the object (the CRD), e.g. ['spec', 'versions', 0, 'name']. */
  readonly path: JsonPath;
  readonly at?: 'key' | 'value';
  /** Present exactly when the server rejects the object with this cause. */
  readonly server?: FieldError;
  /** The server fails the whole request without causes (400 BadRequest …). */
  readonly response?: ServerResponse;
  /** The server answers nothing: it panics handling the request. What it fails on. */
  readonly aborted?: string;
  /** The cause comes from the installed CRD (lint --old): where, inside the OLD object. */
  readonly old?: { readonly manifest: Manifest; readonly path: JsonPath };
}

export interface RuleContext {
  readonly crd: Crd;
  /** Every CRD of the input, in input order (for rules across CRDs, e.g. naming conflicts). */
  readonly allCrds: readonly Crd[];
  /** The server's schema validation cascade, computed once per CRD. */
  schemaAnalysis(): readonly SchemaAnalysis[];
  /** The fieldValidation of the request (kubectl's --validate). */
  readonly fieldValidation: FieldValidation;
  /** Present when the CRD replaces an installed one (lint --old): the request is an update. */
  readonly update?: CrdUpdate;
  /** lint --explain-cost: rules that explain report on everything, not only on what is over a limit. */
  readonly explainCost?: boolean;
}

/** A custom resource of the input whose group has a CRD among the inputs (or --crd). */
export interface ResourceRuleContext {
  readonly manifest: Manifest;
  /** The matching CRD version, or why there is none. */
  readonly lookup: Lookup;
  /** The server's create of this object, simulated once (only when `lookup.ok`), with `fieldValidation`. */
  result(): CreateResult;
  /** The fieldValidation of the request (kubectl's --validate). */
  readonly fieldValidation: FieldValidation;
}

/** lint --old --objects: an object stored under the installed CRD, and its next write under the new one. */
export interface StoredObjectContext {
  readonly manifest: Manifest;
  readonly write: NextWrite;
}

export interface Rule<M extends string = string> {
  readonly id: string;
  readonly meta: RuleMeta<M>;
  check(ctx: RuleContext): Iterable<Report<M>>;
  /** Rules about custom resources; paths are relative to the custom resource. */
  checkResource?(ctx: ResourceRuleContext): Iterable<Report<M>>;
  /** Rules about objects stored under an installed CRD that the input updates (lint --old --objects). */
  checkStoredObject?(ctx: StoredObjectContext): Iterable<Report<M>>;
}

/** Identity helper: infers M so that an unknown messageId is a compile error. */
export function defineRule<M extends string>(rule: Rule<M>): Rule<M> {
  return rule;
}

/** Every server-faithful rule reports field errors through this one message. */
export const SERVER_MESSAGES = { server: '{{text}}' } as const;

export function serverReport(e: FieldError): Report<'server'> {
  return { messageId: 'server', data: { text: '' }, path: e.at, at: e.atKey ? 'key' : 'value', server: e };
}
