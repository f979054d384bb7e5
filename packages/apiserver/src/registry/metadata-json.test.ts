import { stringifyMetadata } from './metadata-json';

const fieldsV1 = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } };

describe('stringifyMetadata', () => {
  it.each([
    ['no managedFields', { name: 'web', labels: { app: 'web' }, generation: 2 }],
    ['an empty list', { name: 'web', managedFields: [] }],
    [
      'entries in their key order, among the other fields',
      {
        name: 'web',
        managedFields: [
          { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1 },
          {
            fieldsV1: {},
            manager: 'kube-controller-manager',
            time: '2026-11-27T10:00:00Z',
            subresource: 'status',
          },
        ],
        uid: 'u-1',
        annotations: { 'a/b': 'quote " and \\ slash' },
      },
    ],
    [
      'undefined members and odd entries',
      {
        name: 'web',
        namespace: undefined,
        managedFields: [{ manager: 'x', time: undefined, fieldsV1 }, null, 'text', { manager: 'no fields' }],
      },
    ],
  ])('writes what JSON.stringify writes: %s', (_name, metadata) => {
    const once = stringifyMetadata(metadata as Record<string, unknown>);
    expect(once).toBe(JSON.stringify(metadata));
    // the remembered FieldsV1 text gives the same answer again
    expect(stringifyMetadata(metadata as Record<string, unknown>)).toBe(once);
  });

  it('shares the text of a FieldsV1 value between objects holding it', () => {
    const a = { name: 'a', managedFields: [{ manager: 'm', fieldsV1 }] };
    const b = { name: 'b', managedFields: [{ manager: 'n', fieldsV1 }] };
    expect(stringifyMetadata(a)).toBe(JSON.stringify(a));
    expect(stringifyMetadata(b)).toBe(JSON.stringify(b));
  });
});
