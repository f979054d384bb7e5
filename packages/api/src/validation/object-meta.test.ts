import { nameIsDNSLabel } from '../util/names';
import { errorMessage } from './field-error';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta';

const namespaced = { namespaced: true };
const clusterScoped = { namespaced: false };

function create(meta: unknown, options = namespaced): string[] {
  return validateObjectMeta(meta, options).map(errorMessage);
}

describe('validateObjectMeta', () => {
  it('accepts a valid namespaced object', () => {
    expect(
      create({
        name: 'web.example',
        namespace: 'default',
        labels: { app: 'web', 'app.kubernetes.io/name': 'web', empty: '' },
        annotations: { 'example.com/Note': 'anything at all' },
        finalizers: ['kubernetes', 'example.com/cleanup'],
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u1', controller: true },
        ],
      }),
    ).toEqual([]);
  });

  it.each<[string, unknown, string[], { namespaced: boolean }?]>([
    [
      'name or generateName',
      { namespace: 'default' },
      ['metadata.name: Required value: name or generateName is required'],
    ],
    ['generateName alone', { generateName: 'web-', namespace: 'default' }, []],
    [
      'generateName format (trailing dash allowed)',
      { generateName: 'Web-', namespace: 'default' },
      [
        "metadata.generateName: Invalid value: \"Web-\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    ['namespace required', { name: 'a' }, ['metadata.namespace: Required value']],
    [
      'namespace forbidden',
      { name: 'a', namespace: 'x' },
      ['metadata.namespace: Forbidden: not allowed on this type'],
      clusterScoped,
    ],
    [
      'namespace is a DNS label',
      { name: 'a', namespace: 'a.b' },
      ['metadata.namespace: Invalid value: "a.b": must not contain dots'],
    ],
    [
      'generation',
      { name: 'a', namespace: 'd', generation: -1 },
      ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'label value',
      { name: 'a', namespace: 'd', labels: { app: 'web server' } },
      [
        "metadata.labels: Invalid value: \"web server\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    ],
    [
      'label key',
      { name: 'a', namespace: 'd', labels: { '/app': 'web' } },
      ['metadata.labels: Invalid value: "/app": prefix part must be non-empty'],
    ],
    [
      'annotation key',
      { name: 'a', namespace: 'd', annotations: { 'a/b/c': 'x' } },
      [
        "metadata.annotations: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    ],
    [
      'annotations size',
      { name: 'a', namespace: 'd', annotations: { big: 'x'.repeat(262142) } },
      ['metadata.annotations: Too long: must have at most 262144 bytes'],
    ],
    [
      'finalizer without prefix',
      { name: 'a', namespace: 'd', finalizers: ['cleanup'] },
      [
        'metadata.finalizers: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
    [
      'owner reference fields',
      { name: 'a', namespace: 'd', ownerReferences: [{ apiVersion: 'apps/', kind: '', name: '', uid: '' }] },
      [
        'metadata.ownerReferences[0].apiVersion: Invalid value: "apps/": version must not be empty',
        'metadata.ownerReferences[0].kind: Invalid value: "": kind must not be empty',
        'metadata.ownerReferences[0].name: Invalid value: "": name must not be empty',
        'metadata.ownerReferences[0].uid: Invalid value: "": uid must not be empty',
      ],
    ],
    [
      'managed fields type',
      {
        name: 'a',
        namespace: 'd',
        managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV2' }],
      },
      ['metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`'],
    ],
    [
      'only one controller',
      {
        name: 'a',
        namespace: 'd',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
          { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'b', uid: '2', controller: true },
        ],
      },
      [
        'metadata.ownerReferences: Invalid value: []string{"ReplicaSet/a", "StatefulSet/b"}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and StatefulSet/b',
      ],
    ],
  ])('%s', (...[, meta, expected, options]) => {
    expect(create(meta, options ?? namespaced)).toEqual(expected);
  });

  it('takes the kind name rule as an option', () => {
    const errs = validateObjectMeta({ name: 'a.b' }, { namespaced: false, nameValidation: nameIsDNSLabel });
    expect(errs.map(errorMessage)).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']);
  });
});

describe('validateObjectMetaUpdate', () => {
  const old = {
    name: 'a',
    namespace: 'd',
    uid: 'u1',
    creationTimestamp: '2024-01-01T00:00:00Z',
    generation: 3,
    finalizers: ['example.com/a'],
  };

  it('accepts label, annotation and finalizer changes', () => {
    expect(validateObjectMetaUpdate({ ...old, labels: { a: 'b' }, generation: 4 }, old)).toEqual([]);
  });

  it('rejects changes of name, namespace, uid and creationTimestamp', () => {
    const errs = validateObjectMetaUpdate(
      { ...old, name: 'b', namespace: 'e', uid: 'u2', creationTimestamp: '2025-01-01T00:00:00Z' },
      old,
    );
    expect(errs.map(errorMessage)).toEqual([
      'metadata.name: Invalid value: "b": field is immutable',
      'metadata.namespace: Invalid value: "e": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
      'metadata.creationTimestamp: Invalid value: "2025-01-01T00:00:00Z": field is immutable',
    ]);
  });

  it('rejects a decremented generation and new finalizers during deletion', () => {
    const deleting = { ...old, deletionTimestamp: '2024-02-01T00:00:00Z', deletionGracePeriodSeconds: 30 };
    const errs = validateObjectMetaUpdate(
      { ...deleting, generation: 2, finalizers: ['example.com/a', 'example.com/c', 'example.com/b'] },
      deleting,
    );
    expect(errs.map(errorMessage)).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b", "example.com/c"}',
      'metadata.generation: Invalid value: 2: must not be decremented',
    ]);
  });
});
