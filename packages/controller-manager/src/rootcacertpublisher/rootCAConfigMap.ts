import type { ConfigMapKind, ObjectOf } from '@orch/api';

export type ConfigMap = ObjectOf<typeof ConfigMapKind>;

/** The ConfigMap every namespace gets, holding the cluster's CA bundle. */
export const ROOT_CA_CONFIG_MAP_NAME = 'kube-root-ca.crt';
/** Its one key: the PEM CA bundle. */
export const ROOT_CA_CONFIG_MAP_KEY = 'ca.crt';
/** The annotation describing what the ConfigMap is for. */
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
/** The text of that annotation, as Kubernetes writes it. */
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints ' +
  'such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/** The ConfigMap to create in `namespace` for the PEM bundle `rootCA`. */
export function newRootCAConfigMap(namespace: string, rootCA: string): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: ROOT_CA_CONFIG_MAP_NAME,
      namespace,
      annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION },
    },
    data: { [ROOT_CA_CONFIG_MAP_KEY]: rootCA },
  };
}

/**
 * The existing ConfigMap put back as it should be, or undefined when it is: its data exactly the
 * bundle (other keys removed) and its description annotation present (any non-empty text is kept);
 * its other metadata and binaryData are left alone.
 */
export function restoredRootCAConfigMap(cm: ConfigMap, rootCA: string): ConfigMap | undefined {
  const data = cm.data ?? {};
  const keys = Object.keys(data);
  const sameData = keys.length === 1 && data[ROOT_CA_CONFIG_MAP_KEY] === rootCA;
  if (sameData && (cm.metadata?.annotations?.[DESCRIPTION_ANNOTATION] ?? '') !== '') return undefined;
  return {
    ...cm,
    metadata: {
      ...cm.metadata,
      annotations: { ...cm.metadata?.annotations, [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION },
    },
    data: { [ROOT_CA_CONFIG_MAP_KEY]: rootCA },
  };
}
