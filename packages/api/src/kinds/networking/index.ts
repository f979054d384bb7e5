import type { KindDeclaration } from '../../schema/kind';
import { IngressKind } from './ingress';
import { IngressClassKind } from './ingress-class';
import { NetworkPolicyKind } from './network-policy';

export * from './ingress';
export * from './ingress-class';
export * from './network-policy';

/** The kinds of the networking.k8s.io group. */
export const networkingKinds: readonly KindDeclaration<any>[] = [
  IngressKind,
  IngressClassKind,
  NetworkPolicyKind,
];
