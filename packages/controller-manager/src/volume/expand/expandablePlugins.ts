import { parseQuantity, type PersistentVolume, type Quantity } from '@orch/api';

/**
 * An in-tree volume plugin that expands its volumes from the controller manager (Kubernetes'
 * ExpandableVolumePlugin).
 */
export interface ExpandablePlugin {
  name: string;
  /** The file system on the volume is grown by the node once the device is (RequiresFSResize). */
  requiresFSResize: boolean;
  /** The unit the plugin's storage allocates in: the device grows to the request rounded up to it. */
  allocationUnit?: 'Gi' | 'Mi';
}

/**
 * The expandable in-tree plugins by the volume source of a PersistentVolume. The host-path, local,
 * nfs and other in-tree plugins are not expandable; CSI volumes are expanded by their driver's
 * external resizer, flex volumes by their driver (none is installed here).
 */
const EXPANDABLE_PLUGINS: Readonly<Record<string, ExpandablePlugin>> = {
  awsElasticBlockStore: { name: 'kubernetes.io/aws-ebs', requiresFSResize: true, allocationUnit: 'Gi' },
  gcePersistentDisk: { name: 'kubernetes.io/gce-pd', requiresFSResize: true, allocationUnit: 'Gi' },
  azureDisk: { name: 'kubernetes.io/azure-disk', requiresFSResize: true, allocationUnit: 'Gi' },
  cinder: { name: 'kubernetes.io/cinder', requiresFSResize: true, allocationUnit: 'Gi' },
  rbd: { name: 'kubernetes.io/rbd', requiresFSResize: true, allocationUnit: 'Mi' },
  glusterfs: { name: 'kubernetes.io/glusterfs', requiresFSResize: false, allocationUnit: 'Gi' },
  azureFile: { name: 'kubernetes.io/azure-file', requiresFSResize: false },
  portworxVolume: { name: 'kubernetes.io/portworx-volume', requiresFSResize: false },
};

/** Kubernetes' FindExpandablePluginBySpec: the plugin that expands the volume, if one does. */
export function expandablePluginFor(volume: PersistentVolume): ExpandablePlugin | undefined {
  const spec = (volume.spec ?? {}) as Record<string, unknown>;
  for (const [source, plugin] of Object.entries(EXPANDABLE_PLUGINS)) {
    if (spec[source] !== undefined && spec[source] !== null) return plugin;
  }
  return undefined;
}

const UNIT_BYTES = { Gi: 1n << 30n, Mi: 1n << 20n } as const;

/**
 * The size the plugin's ExpandVolumeDevice gives the volume for a request: the request rounded up to
 * the plugin's allocation unit (the volume's storage back end is not reached from here, as no cloud
 * or storage cluster is).
 */
export function expandedDeviceSize(plugin: ExpandablePlugin, requested: Quantity): Quantity {
  const unit = plugin.allocationUnit;
  if (!unit) return requested;
  const bytes = requested.scaledBigInt(0);
  const units = (bytes + UNIT_BYTES[unit] - 1n) / UNIT_BYTES[unit];
  return parseQuantity(`${units}${unit}`);
}
