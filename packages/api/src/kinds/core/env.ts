import type { Static } from '@sinclair/typebox';
import { bool, field, quantity, required, str, struct } from '../../schema/fields';
import type { FieldErrorLike } from '../../schema/fields';
import { isDNS1123Subdomain, isEnvVarName, isQualifiedName } from '../../util/names';
import { child, invalid, notSupported, required as requiredError } from '../../validation/field-error';
import { localObjectReferenceName } from './object-reference';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

export const ObjectFieldSelectorSchema = struct(
  core('ObjectFieldSelector'),
  {
    apiVersion: str({
      proto: 1,
      default: 'v1',
      description: 'Version of the schema fieldPath is written in; v1 by default.',
    }),
    fieldPath: required(str({ proto: 2, description: 'Path of the field to select.' })),
  },
  { mapType: 'atomic' },
);
export type ObjectFieldSelector = Static<typeof ObjectFieldSelectorSchema>;

export const ResourceFieldSelectorSchema = struct(
  core('ResourceFieldSelector'),
  {
    containerName: str({
      proto: 1,
      description: 'Container name: required for volumes, optional for env vars.',
    }),
    resource: required(str({ proto: 2, description: 'Resource to select, e.g. limits.cpu.' })),
    divisor: quantity({ proto: 3, description: 'Output format of the exposed resource; 1 by default.' }),
  },
  { mapType: 'atomic' },
);
export type ResourceFieldSelector = Static<typeof ResourceFieldSelectorSchema>;

/** Pod fields environment variables may select (Kubernetes' validEnvDownwardAPIFieldPathExpressions). */
export const ENV_DOWNWARD_API_FIELDS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
] as const;

/** Field labels Kubernetes' ConvertDownwardAPIFieldLabel knows for pods. */
const POD_FIELD_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);

const subscripted = /^(.+?)\['(.*)'\]$/;

/** Kubernetes' validateObjectFieldSelector: a supported pod field, or a label / annotation by key. */
export function validateDownwardAPIFieldRef(
  fs: ObjectFieldSelector,
  supported: readonly string[],
  path: string,
): FieldErrorLike[] {
  if (!fs.apiVersion) return [requiredError(child(path, 'apiVersion'))];
  if (!fs.fieldPath) return [requiredError(child(path, 'fieldPath'))];
  const fieldPathAt = child(path, 'fieldPath');
  const sub = subscripted.exec(fs.fieldPath);
  let conversionError: string | undefined;
  if (fs.apiVersion !== 'v1') conversionError = `unsupported pod version: ${fs.apiVersion}`;
  else if (sub && sub[1] !== 'metadata.annotations' && sub[1] !== 'metadata.labels') {
    conversionError = `field label does not support subscript: ${fs.fieldPath}`;
  } else if (!sub && !POD_FIELD_LABELS.has(fs.fieldPath) && fs.fieldPath !== 'spec.host') {
    conversionError = `field label not supported: ${fs.fieldPath}`;
  }
  if (conversionError)
    return [invalid(fieldPathAt, fs.fieldPath, `error converting fieldPath: ${conversionError}`)];
  if (sub) {
    const key = sub[1] === 'metadata.annotations' ? sub[2]!.toLowerCase() : sub[2]!;
    return isQualifiedName(key).map((msg) => invalid(path, sub[2], msg));
  }
  const internal = fs.fieldPath === 'spec.host' ? 'spec.nodeName' : fs.fieldPath;
  return supported.includes(internal) ? [] : [notSupported(fieldPathAt, internal, supported)];
}

/** name and key of a ConfigMapKeySelector / SecretKeySelector must both be set. */
function validateKeySelector(value: { name?: string; key: string }, path: string): FieldErrorLike[] {
  const errs: FieldErrorLike[] = [];
  if (!value.name) errs.push(requiredError(child(path, 'name')));
  if (!value.key) errs.push(requiredError(child(path, 'key')));
  return errs;
}

export const ConfigMapKeySelectorSchema = struct(
  core('ConfigMapKeySelector'),
  {
    ...localObjectReferenceName('Name of the ConfigMap.'),
    key: required(str({ proto: 2, description: 'The key to select.' })),
    optional: bool({ proto: 3, description: 'Whether the ConfigMap or its key may be missing.' }),
  },
  { mapType: 'atomic', validate: validateKeySelector },
);
export type ConfigMapKeySelector = Static<typeof ConfigMapKeySelectorSchema>;

export const SecretKeySelectorSchema = struct(
  core('SecretKeySelector'),
  {
    ...localObjectReferenceName('Name of the Secret.'),
    key: required(str({ proto: 2, description: 'The key of the secret to select.' })),
    optional: bool({ proto: 3, description: 'Whether the Secret or its key may be missing.' }),
  },
  { mapType: 'atomic', validate: validateKeySelector },
);
export type SecretKeySelector = Static<typeof SecretKeySelectorSchema>;

export const EnvVarSourceSchema = struct(core('EnvVarSource'), {
  fieldRef: field(ObjectFieldSelectorSchema, { proto: 1, description: 'Selects a field of the pod.' }),
  resourceFieldRef: field(ResourceFieldSelectorSchema, {
    proto: 2,
    description: 'Selects a resource limit or request of the container.',
  }),
  configMapKeyRef: field(ConfigMapKeySelectorSchema, {
    proto: 3,
    description: 'Selects a key of a ConfigMap.',
  }),
  secretKeyRef: field(SecretKeySelectorSchema, {
    proto: 4,
    description: "Selects a key of a secret in the pod's namespace.",
  }),
});
export type EnvVarSource = Static<typeof EnvVarSourceSchema>;

export const EnvVarSchema = struct(
  core('EnvVar'),
  {
    name: required(
      str({ proto: 1, format: 'env-var-name', description: 'Name of the environment variable.' }),
    ),
    value: str({
      proto: 2,
      description: 'Value; $(VAR_NAME) references to earlier variables are expanded, $$ escapes.',
    }),
    valueFrom: field(EnvVarSourceSchema, {
      proto: 3,
      description: 'Source of the value; not allowed with value.',
    }),
  },
  {
    validate: (ev, path) => {
      const from = ev.valueFrom;
      if (!from) return [];
      const at = child(path, 'valueFrom');
      const sources = [from.fieldRef, from.resourceFieldRef, from.configMapKeyRef, from.secretKeyRef].filter(
        (s) => s !== undefined && s !== null,
      ).length;
      if (sources === 0) {
        return [
          invalid(
            at,
            '',
            'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
          ),
        ];
      }
      const errs = from.fieldRef
        ? validateDownwardAPIFieldRef(from.fieldRef, ENV_DOWNWARD_API_FIELDS, child(at, 'fieldRef'))
        : [];
      if (ev.value) errs.push(invalid(at, '', 'may not be specified when `value` is not empty'));
      else if (sources > 1)
        errs.push(invalid(at, '', 'may not have more than one field specified at a time'));
      return errs;
    },
  },
);
export type EnvVar = Static<typeof EnvVarSchema>;

export const ConfigMapEnvSourceSchema = struct(core('ConfigMapEnvSource'), {
  ...localObjectReferenceName('Name of the ConfigMap.'),
  optional: bool({ proto: 2, description: 'Whether the ConfigMap may be missing.' }),
});
export type ConfigMapEnvSource = Static<typeof ConfigMapEnvSourceSchema>;

export const SecretEnvSourceSchema = struct(core('SecretEnvSource'), {
  ...localObjectReferenceName('Name of the Secret.'),
  optional: bool({ proto: 2, description: 'Whether the Secret may be missing.' }),
});
export type SecretEnvSource = Static<typeof SecretEnvSourceSchema>;

export const EnvFromSourceSchema = struct(core('EnvFromSource'), {
  prefix: str({
    proto: 1,
    description: 'Prefix prepended to every key of the source; must be a C_IDENTIFIER.',
  }),
  configMapRef: field(ConfigMapEnvSourceSchema, { proto: 2, description: 'The ConfigMap to read.' }),
  secretRef: field(SecretEnvSourceSchema, { proto: 3, description: 'The Secret to read.' }),
});
export type EnvFromSource = Static<typeof EnvFromSourceSchema>;

/**
 * Kubernetes' validateEnvFrom: prefixes are environment variable names, exactly one source per entry
 * (reported on the list itself, as Kubernetes does), source names are DNS subdomains.
 */
export function validateEnvFrom(list: readonly EnvFromSource[] | undefined, path: string): FieldErrorLike[] {
  const errs: FieldErrorLike[] = [];
  (list ?? []).forEach((ev, i) => {
    const at = child(path, i);
    if (ev.prefix) {
      for (const msg of isEnvVarName(ev.prefix)) errs.push(invalid(child(at, 'prefix'), ev.prefix, msg));
    }
    const sources: [string, { name?: string } | undefined][] = [
      ['configMapRef', ev.configMapRef],
      ['secretRef', ev.secretRef],
    ];
    let count = 0;
    for (const [name, src] of sources) {
      if (!src) continue;
      count++;
      const namePath = child(child(at, name), 'name');
      if (!src.name) errs.push(requiredError(namePath));
      else for (const msg of isDNS1123Subdomain(src.name)) errs.push(invalid(namePath, src.name, msg));
    }
    if (count === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
