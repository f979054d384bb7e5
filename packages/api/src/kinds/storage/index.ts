import { CSINodeKind } from './csi-node';
import { StorageClassKind } from './storage-class';
import { VolumeAttachmentKind } from './volume-attachment';

export * from './topology-selector-term';
export * from './storage-class';
export * from './volume-attachment';
export * from './csi-node';

export const storageKinds = [StorageClassKind, VolumeAttachmentKind, CSINodeKind];
