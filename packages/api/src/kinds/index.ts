import type { KindDeclaration } from '../schema/kind';
import { apiextensionsKinds } from './apiextensions';
import { appsKinds } from './apps';
import { authenticationKinds } from './authentication';
import { authorizationKinds } from './authorization';
import { autoscalingKinds } from './autoscaling';
import { batchKinds } from './batch';
import { certificatesKinds } from './certificates';
import { coordinationKinds } from './coordination';
import { coreKinds } from './core';
import { discoveryKinds } from './discovery';
import { eventsKinds } from './events';
import { metricsKinds } from './metrics';
import { networkingKinds } from './networking';
import { policyKinds } from './policy';
import { rbacKinds } from './rbac';
import { schedulingKinds } from './scheduling';
import { storageKinds } from './storage';

export * from './columns';
export * from './core';
export * from './apps';
export * from './batch';
export * from './autoscaling';
export * from './coordination';
export * from './discovery';
export * from './networking';
export * from './policy';
export * from './scheduling';
export * from './rbac';
export * from './authentication';
export * from './authorization';
export * from './certificates';
export * from './storage';
export * from './apiextensions';
export * from './metrics';
/** events.k8s.io/v1 (its Event shares the core kind's name). */
export * as eventsV1 from './events';

/** Every declared kind, core group first. Adding a kind is adding its file and one entry in its group. */
export const allKinds: readonly KindDeclaration<any>[] = [
  ...coreKinds,
  ...appsKinds,
  ...batchKinds,
  ...autoscalingKinds,
  ...coordinationKinds,
  ...discoveryKinds,
  ...networkingKinds,
  ...eventsKinds,
  ...policyKinds,
  ...schedulingKinds,
  ...rbacKinds,
  ...authenticationKinds,
  ...authorizationKinds,
  ...certificatesKinds,
  ...storageKinds,
  ...apiextensionsKinds,
  ...metricsKinds,
];
