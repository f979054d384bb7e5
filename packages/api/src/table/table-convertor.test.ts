import { ConfigMapKind } from '../kinds/core/configmap';
import { DeploymentKind } from '../kinds/apps/deployment';
import { columnDefinitions, toTable } from './table-convertor';

const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'default', creationTimestamp: '2026-11-20T10:00:00Z' },
  data: { color: 'blue' },
};
const now = new Date('2026-11-20T10:05:00Z');

describe('toTable', () => {
  it('prints a kind without columns of its own as Name and Created At, as Kubernetes does', () => {
    const plain = { ...ConfigMapKind, columns: undefined };
    const table = toTable(plain, [configMap], { now });
    expect(table.columnDefinitions).toEqual([
      expect.objectContaining({ name: 'Name', type: 'string', format: 'name', priority: 0 }),
      expect.objectContaining({ name: 'Created At', type: 'date', format: '', priority: 0 }),
    ]);
    expect(table.rows![0]!.cells).toEqual(['settings', '2026-11-20T10:00:00Z']);
  });

  it("prints a kind's own columns, its -o wide ones with priority 1", () => {
    expect(toTable(ConfigMapKind, [configMap], { now }).rows![0]!.cells).toEqual(['settings', 1, '5m']);
    const wide = columnDefinitions(DeploymentKind).filter((c) => c.priority === 1);
    expect(wide.map((c) => c.name)).toEqual(['Containers', 'Images', 'Selector']);
  });

  it('carries in each row the metadata (the default), the object or nothing', () => {
    const rowObject = (includeObject?: 'None' | 'Metadata' | 'Object', apiVersion?: string) =>
      toTable(ConfigMapKind, [configMap], { now, includeObject, apiVersion }).rows![0]!.object;
    expect(rowObject()).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: configMap.metadata,
    });
    expect(rowObject('Metadata', 'meta.orch.io/v1beta1')).toMatchObject({
      apiVersion: 'meta.orch.io/v1beta1',
    });
    expect(rowObject('Object')).toBe(configMap);
    expect(rowObject('None')).toBeUndefined();
  });

  it('adds the conditions a kind declares for a row, and none when there are none', () => {
    const flagged = {
      ...ConfigMapKind,
      rowConditions: (cm: { data?: Record<string, string> }) =>
        cm.data?.color ? [{ type: 'Completed', status: 'True', reason: 'Colored' }] : [],
    };
    const [colored, plain] = toTable(flagged, [configMap, { ...configMap, data: {} }], { now }).rows!;
    expect(colored!.conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Colored' }]);
    expect(plain).not.toHaveProperty('conditions');
    expect(toTable(ConfigMapKind, [configMap], { now }).rows![0]).not.toHaveProperty('conditions');
  });

  it('answers in the apiVersion asked for, with the list metadata given', () => {
    const listMeta = { resourceVersion: '42', continue: 'next', remainingItemCount: 3 };
    const table = toTable(ConfigMapKind, [configMap], { now, apiVersion: 'meta.k8s.io/v1beta1', listMeta });
    expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1beta1', metadata: listMeta });
  });
});
