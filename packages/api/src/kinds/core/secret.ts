import type { Static } from '@sinclair/typebox';
import { bool, bytes, map, str, stringMap, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { invalid, key, required, tooLong, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { dataKeyErrors, decodedLength, immutableDataErrors, MAX_SECRET_SIZE } from './config-data';

export { MAX_SECRET_SIZE } from './config-data';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

const secretFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  immutable: bool({ proto: 5, description: 'If true, data cannot be updated.' }),
  data: map(bytes(), {
    proto: 2,
    description: 'Secret data, base64 encoded; keys are alphanumerics, -, _ or .',
  }),
  stringData: stringMap({
    proto: 4,
    description: 'Write-only: plain-text entries merged into data on write, never returned.',
  }),
  type: str({
    proto: 3,
    default: 'Opaque',
    immutable: true,
    description: 'Type of the secret, for programmatic handling.',
  }),
};
type SecretValue = Static<StructSchema<typeof secretFields>>;

export const SecretSchema = struct(core('Secret'), secretFields, {
  description: 'Sensitive data, such as passwords, tokens or keys, for pods to consume.',
  // Kubernetes merges stringData into data when converting the request; stringData is never stored.
  defaults: (secret) => {
    if (secret.stringData === undefined) return;
    const data = (secret.data ??= {});
    for (const [k, v] of Object.entries(secret.stringData))
      data[k] = Buffer.from(v, 'utf8').toString('base64');
    delete secret.stringData;
  },
  validate: (secret) => validateSecret(secret),
});
export type Secret = Static<typeof SecretSchema>;

/** The type-specific keys Kubernetes requires (ValidateSecret). */
function validateSecretType(secret: SecretValue): FieldError[] {
  const data = secret.data ?? {};
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(data, k);
  switch (secret.type) {
    case 'kubernetes.io/service-account-token': {
      const name = secret.metadata?.annotations?.['kubernetes.io/service-account.name'];
      return name ? [] : [required(key('metadata.annotations', 'kubernetes.io/service-account.name'), '')];
    }
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const k = secret.type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      if (!has(k)) return [required(key('data', k), '')];
      const problem = jsonObjectProblem(Buffer.from(data[k]!, 'base64').toString('utf8'));
      return problem ? [invalid(key('data', k), '<secret contents redacted>', problem)] : [];
    }
    case 'kubernetes.io/basic-auth':
      // Kubernetes builds these paths from the literal "data[%s]".
      if (!has('username') && !has('password')) {
        return [required(key('data[%s]', 'username'), ''), required(key('data[%s]', 'password'), '')];
      }
      return [];
    case 'kubernetes.io/ssh-auth':
      return decodedLength(data['ssh-privatekey'] ?? '') === 0
        ? [required(key('data[%s]', 'ssh-privatekey'), '')]
        : [];
    case 'kubernetes.io/tls':
      return [
        ...(has('tls.crt') ? [] : [required(key('data', 'tls.crt'), '')]),
        ...(has('tls.key') ? [] : [required(key('data', 'tls.key'), '')]),
      ];
    default:
      return [];
  }
}

/** Why `text` is not a JSON object, in the words of Go's decoder where they can be matched. */
function jsonObjectProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  if (value === null || (typeof value === 'object' && !Array.isArray(value))) return undefined;
  const goType = Array.isArray(value)
    ? 'array'
    : typeof value === 'string'
      ? 'string'
      : typeof value === 'number'
        ? 'number'
        : 'bool';
  return `json: cannot unmarshal ${goType} into Go value of type map[string]interface {}`;
}

/** Kubernetes' ValidateSecret (beyond the object metadata). */
export function validateSecret(secret: SecretValue): FieldError[] {
  const errors = dataKeyErrors(secret.data, 'data');
  let total = 0;
  for (const v of Object.values(secret.data ?? {})) total += decodedLength(v);
  if (total > MAX_SECRET_SIZE) errors.push(tooLong('data', '', MAX_SECRET_SIZE));
  errors.push(...validateSecretType(secret));
  return errors;
}

export const SecretKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'Secret',
  plural: 'secrets',
  singular: 'secret',
  namespaced: true,
  schema: SecretSchema,
  selectableFields: { type: (s) => s.type ?? '' },
  // stringData is not compared: it was merged into data before validation.
  validateUpdate: (secret, old) => immutableDataErrors(secret, old, ['data']),
  columns: [
    nameColumn(),
    { name: 'Type', type: 'string', description: 'Type of the secret.', cell: (s) => s.type ?? '' },
    {
      name: 'Data',
      type: 'string',
      description: 'Number of keys in data.',
      cell: (s) => Object.keys(s.data ?? {}).length,
    },
    ageColumn(),
  ],
});
