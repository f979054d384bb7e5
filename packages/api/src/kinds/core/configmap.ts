import type { Static } from '@sinclair/typebox';
import { bool, bytes, map, stringMap, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { invalid, key, tooLong, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { dataKeyErrors, decodedLength, immutableDataErrors, MAX_SECRET_SIZE } from './config-data';

const configMapFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  immutable: bool({ proto: 4, description: 'If set to true, data cannot be updated.' }),
  data: stringMap({
    proto: 2,
    description: 'Configuration data; keys must consist of alphanumerics, -, _ or .',
  }),
  binaryData: map(bytes(), { proto: 3, description: 'Binary configuration data.' }),
};
type ConfigMapValue = Static<StructSchema<typeof configMapFields>>;

/** Kubernetes' ValidateConfigMap (beyond the object metadata). */
export function validateConfigMap(cm: ConfigMapValue): FieldError[] {
  const errors = dataKeyErrors(cm.data, 'data');
  const binaryData = cm.binaryData ?? {};
  let total = 0;
  for (const [k, v] of Object.entries(cm.data ?? {})) {
    if (Object.prototype.hasOwnProperty.call(binaryData, k))
      errors.push(invalid(key('data', k), k, 'duplicate of key present in binaryData'));
    // Go's len of a string: its UTF-8 bytes.
    total += Buffer.byteLength(v, 'utf8');
  }
  errors.push(...dataKeyErrors(binaryData, 'binaryData'));
  for (const v of Object.values(binaryData)) total += decodedLength(v);
  // Kubernetes reports the size on field.NewPath(""), which prints as `[]` (the whole object).
  if (total > MAX_SECRET_SIZE) errors.push(tooLong('[]', '', MAX_SECRET_SIZE));
  return errors;
}

export const ConfigMapSchema = struct('io.k8s.api.core.v1.ConfigMap', configMapFields, {
  description: 'Configuration data, as string and binary key-value pairs, for pods to consume.',
  validate: (cm) => validateConfigMap(cm),
});
export type ConfigMap = Static<typeof ConfigMapSchema>;

export const ConfigMapKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'ConfigMap',
  plural: 'configmaps',
  singular: 'configmap',
  shortNames: ['cm'],
  namespaced: true,
  schema: ConfigMapSchema,
  validateUpdate: (cm, old) => immutableDataErrors(cm, old, ['data', 'binaryData']),
  columns: [
    nameColumn(),
    {
      name: 'Data',
      type: 'string',
      description: 'Number of keys in data and binaryData.',
      cell: (cm) => Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
    },
    ageColumn(),
  ],
});
