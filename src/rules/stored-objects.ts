import { errorText, type FieldError } from '../core/field-error.js';
import type { JsonPath, ServerResponse } from '../core/types.js';
import { invalidMessage, qualifiedKind } from '../cr/update.js';
import type { Manifest } from '../manifest/parse.js';
import { defineRule, type Report } from './types.js';

type M = 'update' | 'updateFailed' | 'create' | 'notServed' | 'celNotEvaluated' | 'conversionNotSimulated' | 'migration';

/** How many objects a migration finding names before it only counts. */
const NAMED = 5;

function key(e: FieldError): string {
  return `${e.type}\0${e.field}\0${e.detail}`;
}

function objectName(m: Manifest): string {
  return m.namespace !== undefined && m.namespace !== '' ? `${m.namespace}/${m.name ?? ''}` : (m.name ?? '(no name)');
}

export const storedObjects = defineRule<M>({
  id: 'stored-objects',
  meta: {
    type: 'problem',
    serverFaithful: true,
    defaultSeverity: 'error',
    checkSeverity: { celNotEvaluated: 'warning', conversionNotSimulated: 'warning', migration: 'warning' },
    docs: {
      description: 'lint --old --objects: objects stored under the installed CRD that the new CRD would make unwritable, and stored versions that need a migration.',
      details:
        'Only with --old and --objects (files, directories or - of custom resources of any kinds), or with --old cluster, which reads the live objects of every CRD the input updates (all namespaces, or -n; listed page by page). Objects of CRDs the input does not update are not checked (lint the input with them to validate them as creates). ' +
        'Each object is taken as stored under OLD (for a file: what OLD\'s create makes of it, pruned and defaulted; an object OLD rejects is taken as written) and then written under NEW as the server would on its next write: ' +
        'notServed: its apiVersion is no longer served by NEW, so every request for it at that version is a 404 NotFound; ' +
        'update: the next update, even one that changes nothing (the object as a GET under NEW returns it, PUT back with its resourceVersion), is rejected with this cause (422 Invalid; validation ratcheting keeps unchanged invalid values, CEL transition rules see oldSelf); ' +
        'updateFailed: that update fails without field causes (the stored object cannot be decoded: 500; other answers with their status); ' +
        'create: a fresh create of the same object (re-applied after a delete, or in another cluster) is rejected with a cause the update does not have (no ratcheting); ' +
        'celNotEvaluated (warning): a CEL rule of NEW could not be evaluated on the object, so its verdict may miss a rejection; ' +
        'conversionNotSimulated (warning): NEW converts through a webhook between the stored version and the object\'s version, which crdx cannot run: the object is checked as if the webhook returned it unchanged; ' +
        'migration (warning): a version in status.storedVersions stops being the storage version, is no longer served, or is removed: every object stored in it must be rewritten (a storage version migration, e.g. a no-op update of each object) and the version taken out of status.storedVersions before it can be dropped; the finding names the given objects when all of them are known to be stored in that version (OLD\'s storedVersions is that version alone). ' +
        'Findings point at the object (file, line and column; a live object\'s file is cluster:<context>/<plural.group>/<namespace>/<name>); the summary of each updated CRD counts the objects checked and those affected.',
      reference:
        'k8s.io/apiextensions-apiserver pkg/registry/customresource/strategy.go: customResourceStrategy.ValidateUpdate; k8s.io/apiextensions-apiserver pkg/registry/customresource/validator.go: customResourceValidator.ValidateUpdate; k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/validation.go: Validator.Validate; k8s.io/apiextensions-apiserver pkg/apiserver/customresource_handler.go: crdHandler.ServeHTTP; k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go: strategy.PrepareForUpdate',
    },
    messages: {
      update: '{{text}}',
      updateFailed: 'the next update of this object fails: {{text}}',
      create: '{{text}}',
      notServed: '{{text}}: every request for this object at its apiVersion is a 404 NotFound',
      celNotEvaluated: 'CEL rules of the new CRD were not evaluated on this object ({{why}}): the server may reject its next write for them',
      conversionNotSimulated: 'version {{requested}} is read from the stored version {{stored}} through the conversion webhook, which crdx cannot run: checked as if it returned the object unchanged',
      migration: 'stored version {{version}} {{change}}: objects stored in it must be rewritten and {{version}} removed from status.storedVersions before it can be dropped{{objects}}',
    },
  },
  *check({ crd, update }) {
    if (!update) return;
    const old = update.old;
    const os = old.crd.versions.find((v) => v.storage);
    const ns = crd.versions.find((v) => v.storage);
    const objects = update.objects;
    // only when objects are checked (--objects, --old cluster): a plain update is covered by versions and upgrade-safety
    if (objects === undefined) return;
    for (const [i, v] of old.storedVersions.entries()) {
      if (ns && ns.name === v) continue;
      const nv = crd.versions.find((x) => x.name === v);
      let change: string;
      let path: JsonPath;
      if (!nv) {
        change = 'is removed from spec.versions';
        path = ['spec', 'versions'];
      } else if (!nv.served) {
        change = 'is no longer served';
        path = Object.hasOwn(nv.raw, 'served') ? [...nv.loc.at, 'served'] : nv.loc.at;
      } else if (os?.name === v) {
        change = `is no longer the storage version (now ${ns?.name ?? 'none'})`;
        path = Object.hasOwn(nv.raw, 'storage') ? [...nv.loc.at, 'storage'] : nv.loc.at;
      } else continue;
      let text = '';
      if (objects && objects.length > 0) {
        if (old.storedVersions.length === 1) {
          const names = objects.slice(0, NAMED).map(objectName);
          text = `; the ${objects.length} object${objects.length === 1 ? '' : 's'} given ${objects.length === 1 ? 'is' : 'are'} stored in it: ${names.join(', ')}${objects.length > NAMED ? `, and ${objects.length - NAMED} more` : ''}`;
        } else text = `; which of the ${objects.length} object${objects.length === 1 ? '' : 's'} given ${objects.length === 1 ? 'is' : 'are'} stored in it cannot be told through the API (status.storedVersions: ${old.storedVersions.join(', ')}): rewrite all of them`;
      }
      yield { messageId: 'migration', data: { version: v, change, objects: text }, path, old: { manifest: old.crd.manifest, path: old.storedAt[i] ?? [] } };
    }
  },
  *checkStoredObject({ write }) {
    if (write.notServed !== undefined) {
      const response: ServerResponse = { code: 404, reason: 'NotFound', message: write.notServed };
      yield { messageId: 'notServed', data: { text: write.notServed }, path: ['apiVersion'], response };
      return;
    }
    if (write.webhookConversion) yield { messageId: 'conversionNotSimulated', data: write.webhookConversion, path: ['apiVersion'] };
    const seen = new Set<string>();
    const u = write.update;
    if (u) {
      if (u.failure) {
        yield { messageId: 'updateFailed', data: { text: u.failure.message }, path: u.failure.at ?? [], response: { code: u.failure.code, reason: u.failure.reason, message: u.failure.message } };
      } else if (u.errors.length > 0) {
        const name = typeof (u.old['metadata'] as Record<string, unknown> | undefined)?.['name'] === 'string' ? ((u.old['metadata'] as Record<string, unknown>)['name'] as string) : '';
        const response: ServerResponse = { code: 422, reason: 'Invalid', message: invalidMessage(qualifiedKind(u.served), name, u.errors.map((e) => ({ text: errorText(e) }))) };
        for (const e of u.errors) {
          seen.add(key(e));
          yield { messageId: 'update', data: { text: '' }, path: e.at, at: e.atKey ? 'key' : 'value', server: e, response } as Report<M>;
        }
      }
    }
    const c = write.create;
    if (c) {
      const fresh = c.errors.filter((e) => !seen.has(key(e)));
      for (const e of fresh) yield { messageId: 'create', data: { text: '' }, path: e.at, at: e.atKey ? 'key' : 'value', server: e } as Report<M>;
    }
    const skipped = [...(u?.celSkipped ?? []), ...(c?.celSkipped ?? [])];
    if ((u?.celNotEvaluated ?? false) || (c?.celNotEvaluated ?? false)) {
      const why = [...new Set(skipped.map((s) => s.why))].slice(0, 3).join('; ') || 'not evaluable offline';
      yield { messageId: 'celNotEvaluated', data: { why }, path: [] };
    }
  },
});
