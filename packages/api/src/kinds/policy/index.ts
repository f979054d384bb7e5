import { EvictionKind } from './eviction';
import { PodDisruptionBudgetKind } from './pod-disruption-budget';

export * from './pod-disruption-budget';
export * from './eviction';

export const policyKinds = [PodDisruptionBudgetKind, EvictionKind];
