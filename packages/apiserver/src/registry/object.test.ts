import { cloneKeepingManagedFields, type ApiObject } from './object';

describe('cloneKeepingManagedFields', () => {
  it('copies everything but the managedFields list, which keeps its place', () => {
    const managedFields = [{ manager: 'm', operation: 'Update', fieldsV1: { 'f:data': {} } }];
    const obj: ApiObject = {
      kind: 'ConfigMap',
      metadata: { name: 'c', managedFields, labels: { a: 'b' } },
      data: { k: 'v' },
    };
    const copy = cloneKeepingManagedFields(obj);
    expect(copy).toEqual(obj);
    expect(copy.metadata.managedFields).toBe(managedFields);
    expect(Object.keys(copy.metadata)).toEqual(['name', 'managedFields', 'labels']);
    expect(copy.metadata).not.toBe(obj.metadata);
    expect(copy.metadata.labels).not.toBe(obj.metadata.labels);
    expect(copy.data).not.toBe(obj.data);
  });

  it('is a deep copy of an object without managedFields', () => {
    const obj: ApiObject = { metadata: { name: 'c', labels: { a: 'b' } }, spec: { x: [1, { y: 2 }] } };
    const copy = cloneKeepingManagedFields(obj);
    expect(copy).toEqual(obj);
    expect(copy.metadata.labels).not.toBe(obj.metadata.labels);
    expect(copy.spec).not.toBe(obj.spec);
  });
});
