import { PriorityClassKind } from './priority-class';

export * from './priority-class';

export const schedulingKinds = [PriorityClassKind];
