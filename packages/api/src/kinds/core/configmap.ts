import { bool, bytes, map, stringMap, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { ageColumn, nameColumn } from '../columns';

export const ConfigMapSchema = struct(
  'io.k8s.api.core.v1.ConfigMap',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    immutable: bool({ proto: 4, description: 'If set to true, data cannot be updated.' }),
    data: stringMap({
      proto: 2,
      description: 'Configuration data; keys must consist of alphanumerics, -, _ or .',
    }),
    binaryData: map(bytes(), { proto: 3, description: 'Binary configuration data.' }),
  },
  { description: 'Configuration data, as string and binary key-value pairs, for pods to consume.' },
);

export const ConfigMapKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'ConfigMap',
  plural: 'configmaps',
  singular: 'configmap',
  shortNames: ['cm'],
  namespaced: true,
  schema: ConfigMapSchema,
  columns: [
    nameColumn(),
    {
      name: 'Data',
      type: 'integer',
      description: 'Number of keys in data and binaryData.',
      cell: (cm) => Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
    },
    ageColumn(),
  ],
});
