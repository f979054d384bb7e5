import { DeploymentSchema, strategicMergePatch } from '@orch/api';
import { applyStrategicPatch } from './patch';

const managedFields = [
  {
    manager: 'kubectl',
    operation: 'Apply',
    apiVersion: 'apps/v1',
    time: '2026-11-27T10:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:spec': { 'f:replicas': {} } },
  },
];

function deployment() {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' }, managedFields, uid: 'u-1' },
    spec: {
      replicas: 2,
      template: { spec: { containers: [{ name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }] }] } },
    },
  };
}

describe('applyStrategicPatch', () => {
  it('shares the target managedFields list when the patch leaves it alone, and nothing else', () => {
    const target = deployment();
    const before = JSON.stringify(target);
    const patch = {
      metadata: { annotations: { rev: '2' } },
      spec: { template: { spec: { containers: [{ name: 'app', env: [{ name: 'A', value: '2' }] }] } } },
    };
    const patched = applyStrategicPatch(target, patch, DeploymentSchema) as ReturnType<typeof deployment>;
    expect(patched).toEqual(strategicMergePatch(target, patch, DeploymentSchema));
    expect(JSON.stringify(target)).toBe(before);
    expect(patched.metadata.managedFields).toBe(target.metadata.managedFields);
    // in its place among the metadata fields
    expect(Object.keys(patched.metadata)).toEqual(['name', 'labels', 'managedFields', 'uid', 'annotations']);
    expect(patched.metadata.labels).not.toBe(target.metadata.labels);
    expect(patched.spec.template).not.toBe(target.spec.template);
  });

  it.each([
    ['sets managedFields', { metadata: { managedFields: [{ manager: 'x', operation: 'Update' }] } }],
    ['removes managedFields', { metadata: { managedFields: null } }],
    ['replaces the metadata', { metadata: { $patch: 'replace', name: 'web' } }],
    ['replaces the object', { $patch: 'replace', metadata: { name: 'web' } }],
    ['removes the metadata', { metadata: null }],
  ])('merges as strategic merge does when the patch %s', (_what, patch) => {
    const target = deployment();
    const patched = applyStrategicPatch(target, patch, DeploymentSchema) as Record<string, any>;
    const expected = strategicMergePatch(target, patch, DeploymentSchema) as Record<string, any>;
    expect(patched).toEqual(expected);
    if (patched.metadata?.managedFields !== undefined)
      expect(patched.metadata.managedFields).not.toBe(target.metadata.managedFields);
  });
});
