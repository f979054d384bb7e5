import { HorizontalPodAutoscalerKind } from './horizontal-pod-autoscaler';
import { ScaleKind } from './scale';

export * from './cross-version-object-reference';
export * from './horizontal-pod-autoscaler';
export * from './scale';

export const autoscalingKinds = [HorizontalPodAutoscalerKind, ScaleKind];
