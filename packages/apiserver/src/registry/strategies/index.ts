import type { KindDeclaration } from '@orch/api';
import { Strategy } from '../strategy';
import { CertificateSigningRequestStrategy } from './certificate-signing-request-strategy';
import { CreateOnUpdateStrategy } from './create-on-update-strategy';
import { DaemonSetStrategy } from './daemon-set-strategy';
import { HorizontalPodAutoscalerStrategy } from './horizontal-pod-autoscaler-strategy';
import { JobStrategy } from './job-strategy';
import { NamespaceStrategy } from './namespace-strategy';
import type { KubeletClientConfig } from './pod-log';
import { PersistentVolumeClaimStrategy } from './persistent-volume-claim-strategy';
import { PodStrategy } from './pod-strategy';
import { PriorityClassStrategy } from './priority-class-strategy';
import { NodeStrategy } from './node-strategy';
import { ServiceStrategy } from './service-strategy';
import { CustomResourceDefinitionStrategy } from './custom-resource-definition-strategy';
import { CustomResourceStrategy } from './custom-resource-strategy';

/** Server-wide things kind strategies use: how the apiserver reaches node agents (pods/log). */
export interface StrategyContext {
  kubeletClient?: () => KubeletClientConfig | undefined;
}

type StrategyFactory = (decl: KindDeclaration<any>, context: StrategyContext) => Strategy;

/** Kinds whose behaviour goes beyond the generic strategy, by `<group>/<plural>`. */
const strategies: Record<string, StrategyFactory> = {
  '/pods': (d, context) => new PodStrategy(d, context.kubeletClient ?? (() => undefined)),
  '/namespaces': (d) => new NamespaceStrategy(d),
  '/nodes': (d, context) => new NodeStrategy(d, context.kubeletClient ?? (() => undefined)),
  '/persistentvolumeclaims': (d) => new PersistentVolumeClaimStrategy(d),
  '/services': (d) => new ServiceStrategy(d),
  'batch/jobs': (d) => new JobStrategy(d),
  'autoscaling/horizontalpodautoscalers': (d) => new HorizontalPodAutoscalerStrategy(d),
  'apps/daemonsets': (d) => new DaemonSetStrategy(d),
  'certificates.k8s.io/certificatesigningrequests': (d) => new CertificateSigningRequestStrategy(d),
  '/endpoints': (d) => new CreateOnUpdateStrategy(d),
  '/events': (d) => new CreateOnUpdateStrategy(d),
  'events.k8s.io/events': (d) => new CreateOnUpdateStrategy(d),
  'coordination.k8s.io/leases': (d) => new CreateOnUpdateStrategy(d),
  'scheduling.k8s.io/priorityclasses': (d) => new PriorityClassStrategy(d),
  'apiextensions.k8s.io/customresourcedefinitions': (d) => new CustomResourceDefinitionStrategy(d),
};

/** The strategy of a kind: its own where it has one, the generic one otherwise. */
export function strategyFor(decl: KindDeclaration<any>, context: StrategyContext = {}): Strategy {
  if (decl.customResource) return new CustomResourceStrategy(decl);
  const factory = strategies[`${decl.group}/${decl.plural}`];
  return factory ? factory(decl, context) : new Strategy(decl);
}
