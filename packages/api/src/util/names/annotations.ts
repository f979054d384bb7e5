/** Total size limit of an object's annotations, keys plus values, in bytes (256 KiB). */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

/** The total size of annotations in bytes as Kubernetes counts it: UTF-8 lengths of keys and values. */
export function annotationsSize(annotations: Readonly<Record<string, string>> | undefined): number {
  let total = 0;
  if (annotations === undefined) return total;
  for (const k in annotations) {
    if (!Object.prototype.hasOwnProperty.call(annotations, k)) continue;
    total += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(annotations[k] ?? '', 'utf8');
  }
  return total;
}

/**
 * Checks the 256 KiB total: undefined when within the limit, else Kubernetes' message
 * `annotations size 262145 is larger than limit 262144`. (Field validation reports it as
 * `metadata.annotations: Too long: must have at most 262144 bytes`.)
 */
export function validateAnnotationsSize(
  annotations: Readonly<Record<string, string>> | undefined,
): string | undefined {
  const size = annotationsSize(annotations);
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
    return `annotations size ${size} is larger than limit ${TOTAL_ANNOTATION_SIZE_LIMIT_BYTES}`;
  }
  return undefined;
}
