import type { PersistentVolumeClaim } from './persistent-volume-claim';

type ClaimCondition = NonNullable<NonNullable<PersistentVolumeClaim['status']>['conditions']>[number];

/** The CSI volume plugin's name: the prefix of the unique names of CSI volumes. */
export const CSI_PLUGIN_NAME = 'kubernetes.io/csi';
/** Between a CSI volume's driver and its handle in its unique name. */
export const CSI_VOLUME_NAME_SEPARATOR = '^';

/**
 * The unique name of a CSI volume, `kubernetes.io/csi/<driver>^<volumeHandle>`: how
 * node.status.volumesAttached and volumesInUse name it.
 */
export function csiUniqueVolumeName(driver: string, volumeHandle: string): string {
  return `${CSI_PLUGIN_NAME}/${driver}${CSI_VOLUME_NAME_SEPARATOR}${volumeHandle}`;
}

/** The driver and handle of a CSI volume's unique name; undefined for other plugins' volumes. */
export function parseCSIUniqueVolumeName(name: string): { driver: string; volumeHandle: string } | undefined {
  if (!name.startsWith(`${CSI_PLUGIN_NAME}/`)) return undefined;
  const rest = name.slice(CSI_PLUGIN_NAME.length + 1);
  const at = rest.indexOf(CSI_VOLUME_NAME_SEPARATOR);
  if (at <= 0 || at === rest.length - 1) return undefined;
  return { driver: rest.slice(0, at), volumeHandle: rest.slice(at + 1) };
}

/** The claim conditions of the resize process; the others are left alone. */
export const RESIZE_CONDITION_TYPES: ReadonlySet<string> = new Set(['Resizing', 'FileSystemResizePending']);

/**
 * Kubernetes' MergeResizeConditionOnPVC: the claim's resize conditions become `wanted` (a condition
 * whose status does not change keeps its transition time), its other conditions stay.
 */
export function mergeResizeConditions(
  current: readonly ClaimCondition[] | undefined,
  wanted: readonly ClaimCondition[],
): ClaimCondition[] {
  const pending = new Map(wanted.map((c) => [c.type, c]));
  const out: ClaimCondition[] = [];
  for (const condition of current ?? []) {
    if (!RESIZE_CONDITION_TYPES.has(condition.type ?? '')) {
      out.push(condition);
      continue;
    }
    const next = pending.get(condition.type);
    if (!next) continue;
    out.push(next.status !== condition.status ? next : condition);
    pending.delete(condition.type);
  }
  return [...out, ...pending.values()];
}
