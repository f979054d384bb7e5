import type { KindDeclaration } from '../../schema/kind';
import { EndpointSliceKind } from './endpoint-slice';

export * from './endpoint-slice';

/** The kinds of the discovery.k8s.io group. */
export const discoveryKinds: readonly KindDeclaration<any>[] = [EndpointSliceKind];
