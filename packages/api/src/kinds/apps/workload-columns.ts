import type { LabelSelector } from '../../meta/object-meta';
import type { ColumnDeclaration } from '../../schema/kind';
import { layoutContainerCells } from '../core/pod-columns';
import { selectorOf } from './template-rules';

interface PodTemplateLike {
  spec?: { containers?: readonly { name: string; image?: string }[] };
}

/** The CONTAINERS and IMAGES wide columns of workloads, read from the pod template `template(obj)`. */
export function containerColumns<T>(
  template: (obj: T) => PodTemplateLike | undefined,
): ColumnDeclaration<T>[] {
  return [
    {
      name: 'Containers',
      type: 'string',
      priority: 1,
      description: 'Names of each container in the template.',
      cell: (obj) => layoutContainerCells(template(obj)?.spec?.containers).names,
    },
    {
      name: 'Images',
      type: 'string',
      priority: 1,
      description: 'Images referenced by each container in the template.',
      cell: (obj) => layoutContainerCells(template(obj)?.spec?.containers).images,
    },
  ];
}

/** The SELECTOR wide column. */
export function selectorColumn<T>(cell: (obj: T) => string): ColumnDeclaration<T> {
  return {
    name: 'Selector',
    type: 'string',
    priority: 1,
    description: 'The label selector of the pods.',
    cell,
  };
}

/**
 * The selector in its string form, as the Deployment printer shows it (no `<none>` for an empty
 * selector, unlike FormatLabelSelector); `<invalid>` when it cannot be converted.
 */
export function selectorStringCell(selector: LabelSelector | undefined): string {
  return selectorOf(selector)?.toString() ?? '<invalid>';
}
