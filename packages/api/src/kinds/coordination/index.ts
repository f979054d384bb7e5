import { LeaseKind } from './lease';

export * from './lease';

export const coordinationKinds = [LeaseKind];
