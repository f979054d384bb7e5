import type { Static } from '@sinclair/typebox';
import { field, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { nameColumn } from '../columns';
import { formatLabels, layoutContainerCells } from './pod-columns';
import { PodTemplateSpecSchema } from './pod-spec';

export const PodTemplateSchema = struct(
  'io.k8s.api.core.v1.PodTemplate',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    template: field(PodTemplateSpecSchema, { proto: 2, description: 'The pods created from this template.' }),
  },
  { description: 'A template of pods to create.' },
);
export type PodTemplate = Static<typeof PodTemplateSchema>;

export const PodTemplateKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'PodTemplate',
  plural: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  schema: PodTemplateSchema,
  columns: [
    nameColumn(),
    {
      name: 'Containers',
      type: 'string',
      description: 'Names of each container in the template.',
      cell: (pt) => layoutContainerCells(pt.template?.spec?.containers).names,
    },
    {
      name: 'Images',
      type: 'string',
      description: 'Images referenced by each container in the template.',
      cell: (pt) => layoutContainerCells(pt.template?.spec?.containers).images,
    },
    {
      name: 'Pod Labels',
      type: 'string',
      description: 'The labels for the pod template.',
      cell: (pt) => formatLabels(pt.template?.metadata?.labels),
    },
  ],
});
