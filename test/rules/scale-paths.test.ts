import { describe, expect, it } from 'vitest';
import { widgetsCrd } from '../helpers/crd.js';
import { lintYaml } from '../helpers/lint.js';
import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('scale-paths');

/** A CRD whose /scale specReplicasPath is `path`, with a schema that declares only spec.replicas. */
function crd(path: string): string {
  return widgetsCrd({
    version: `subresources:
  scale: {specReplicasPath: "${path}", statusReplicasPath: .status.replicas}`,
    schema: `type: object
properties:
  spec: {type: object, properties: {replicas: {type: integer}}}
  status: {type: object, properties: {replicas: {type: integer}}}`,
  });
}

function scaleMessages(path: string): string[] {
  return lintYaml(crd(path))
    .filter((f) => f.ruleId === 'scale-paths')
    .map((f) => f.message);
}

describe('scale-paths lookups are own-key', () => {
  it('a name that is not declared is not in the schema', () => {
    expect(scaleMessages('.spec.nothere')).toEqual([
      'specReplicasPath .spec.nothere is not in the schema of version v1 ("nothere" is unknown and is pruned): /scale will not find it',
    ]);
  });
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('.spec.%s gets the same message as any undeclared name', (name) => {
    expect(scaleMessages(`.spec.${name}`)).toEqual(scaleMessages('.spec.nothere').map((m) => m.replaceAll('nothere', name)));
  });
});
