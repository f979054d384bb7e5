/** Kubernetes' protobuf message names of the values with their own representation. */
export const wellKnownMessages = {
  time: 'k8s.io.apimachinery.pkg.apis.meta.v1.Time',
  microTime: 'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime',
  intOrString: 'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
  quantity: 'k8s.io.apimachinery.pkg.api.resource.Quantity',
  rawExtension: 'k8s.io.apimachinery.pkg.runtime.RawExtension',
  fieldsV1: 'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1',
  typeMeta: 'k8s.io.apimachinery.pkg.runtime.TypeMeta',
  unknown: 'k8s.io.apimachinery.pkg.runtime.Unknown',
} as const;

/** OpenAPI definition name → protobuf message name (`io.k8s.api.core.v1.Pod` → `k8s.io.api.core.v1.Pod`). */
export function messageNameOf(definitionName: string): string {
  if (definitionName.startsWith('io.k8s.')) return `k8s.io.${definitionName.slice('io.k8s.'.length)}`;
  return definitionName;
}
