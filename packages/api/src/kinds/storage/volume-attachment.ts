import type { Static } from '@sinclair/typebox';
import { bool, field, required, str, stringMap, struct, time, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { nameIsDNSSubdomain } from '../../util/names';
import {
  child,
  forbidden,
  invalid,
  required as requiredError,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { PersistentVolumeSpecSchema } from '../core/persistent-volume';

const volumeAttachmentSourceFields = {
  persistentVolumeName: str({ proto: 1, description: 'Name of the persistent volume to attach.' }),
  inlineVolumeSpec: field(PersistentVolumeSpecSchema, {
    proto: 2,
    description: 'An inline volume of a pod, translated from an in-tree plugin for CSI migration.',
  }),
};
type VolumeAttachmentSourceValue = Static<StructSchema<typeof volumeAttachmentSourceFields>>;

export const VolumeAttachmentSourceSchema = struct(
  'io.k8s.api.storage.v1.VolumeAttachmentSource',
  volumeAttachmentSourceFields,
  { validate: (source, path) => validateVolumeAttachmentSource(source, path) },
);

/** Kubernetes' validateVolumeAttachmentSource: a persistent volume name or an inline volume, not both. */
function validateVolumeAttachmentSource(source: VolumeAttachmentSourceValue, path: string): FieldError[] {
  const inline = source.inlineVolumeSpec !== undefined;
  if (source.persistentVolumeName === undefined && !inline) {
    return [requiredError(path, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  }
  if (source.persistentVolumeName !== undefined && inline) {
    return [forbidden(path, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  }
  if (source.persistentVolumeName === '') {
    return [
      requiredError(child(path, 'persistentVolumeName'), 'must specify non empty persistentVolumeName'),
    ];
  }
  return [];
}

const volumeAttachmentSpecFields = {
  attacher: required(str({ proto: 1, description: 'The volume driver that handles the attachment.' })),
  source: required(field(VolumeAttachmentSourceSchema, { proto: 2, description: 'The volume to attach.' })),
  nodeName: required(str({ proto: 3, description: 'The node the volume is attached to.' })),
};
type VolumeAttachmentSpecValue = Static<StructSchema<typeof volumeAttachmentSpecFields>>;

export const VolumeAttachmentSpecSchema = struct(
  'io.k8s.api.storage.v1.VolumeAttachmentSpec',
  volumeAttachmentSpecFields,
  {
    validate: (spec, path) => validateVolumeAttachmentSpec(spec, path),
  },
);

function validateVolumeAttachmentSpec(spec: VolumeAttachmentSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.attacher === '') errors.push(requiredError(child(path, 'attacher'), ''));
  for (const msg of nameIsDNSSubdomain(spec.nodeName, false)) {
    errors.push(invalid(child(path, 'nodeName'), spec.nodeName, msg));
  }
  return errors;
}

export const VolumeErrorSchema = struct('io.k8s.api.storage.v1.VolumeError', {
  time: time({ proto: 1, description: 'When the error was met.' }),
  message: str({ proto: 2, description: 'The error, possibly shown to users.' }),
});

export const VolumeAttachmentStatusSchema = struct('io.k8s.api.storage.v1.VolumeAttachmentStatus', {
  attached: required(bool({ proto: 1, description: 'True when the attach operation succeeded.' })),
  attachmentMetadata: stringMap({ proto: 2, description: 'Information returned by a successful attach.' }),
  attachError: field(VolumeErrorSchema, { proto: 3, description: 'The last error of the attach operation.' }),
  detachError: field(VolumeErrorSchema, { proto: 4, description: 'The last error of the detach operation.' }),
});

export const VolumeAttachmentSchema = struct(
  'io.k8s.api.storage.v1.VolumeAttachment',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: required(
      field(VolumeAttachmentSpecSchema, {
        proto: 2,
        immutable: true,
        description: 'The attachment wanted; cannot be updated.',
      }),
    ),
    status: field(VolumeAttachmentStatusSchema, { proto: 3, description: 'State of the attachment.' }),
  },
  { description: 'The intent to attach a volume to a node, and whether it is attached.' },
);
export type VolumeAttachment = Static<typeof VolumeAttachmentSchema>;

export const VolumeAttachmentKind = defineKind({
  group: 'storage.k8s.io',
  versions: ['v1'],
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  schema: VolumeAttachmentSchema,
  subresources: { status: true },
  columns: [
    nameColumn(),
    {
      name: 'Attacher',
      type: 'string',
      // Kubernetes marks this column with the name format too.
      format: 'name',
      description: 'The volume driver.',
      cell: (va) => va.spec.attacher,
    },
    {
      name: 'PV',
      type: 'string',
      description: 'The persistent volume attached.',
      cell: (va) => va.spec.source.persistentVolumeName ?? '',
    },
    {
      name: 'Node',
      type: 'string',
      description: 'The node of the attachment.',
      cell: (va) => va.spec.nodeName,
    },
    {
      name: 'Attached',
      type: 'boolean',
      description: 'Whether the volume is attached.',
      cell: (va) => va.status?.attached ?? false,
    },
    ageColumn(),
  ],
});
