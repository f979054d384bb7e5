import type { Static } from '@sinclair/typebox';
import { bool, bytes, map, str, stringMap, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, maxLenError, regexError } from '../../util/names';
import { forbidden, invalid, key, required, tooLong, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/** Largest total size of a secret's data values (1 MiB). */
export const MAX_SECRET_SIZE = 1024 * 1024;

const configKeyFmt = '[-._a-zA-Z0-9]+';
const configKeyRegexp = new RegExp(`^${configKeyFmt}$`);
const configKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

/** Kubernetes' IsConfigMapKey: the keys of ConfigMap and Secret data. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!configKeyRegexp.test(value))
    errs.push(regexError(configKeyErrMsg, configKeyFmt, 'key.name', 'KEY_NAME', 'key_name'));
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

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

function decodedLength(b64: string): number {
  return Buffer.from(b64, 'base64').length;
}

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
  const errors: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(secret.data ?? {})) {
    for (const msg of isConfigMapKey(k)) errors.push(invalid(key('data', k), k, msg));
    total += decodedLength(v);
  }
  if (total > MAX_SECRET_SIZE) errors.push(tooLong('data', '', MAX_SECRET_SIZE));
  errors.push(...validateSecretType(secret));
  return errors;
}

function sameData(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => b?.[k] === a?.[k]);
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
  validateUpdate: (secret, old) => {
    if (old.immutable !== true) return [];
    const errors: FieldError[] = [];
    if (secret.immutable !== true)
      errors.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
    if (!sameData(secret.data, old.data))
      errors.push(forbidden('data', 'field is immutable when `immutable` is set'));
    return errors;
  },
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
