import { ControllerRevisionKind } from './controller-revision';
import { DaemonSetKind } from './daemon-set';
import { DeploymentKind } from './deployment';
import { ReplicaSetKind } from './replica-set';
import { StatefulSetKind } from './stateful-set';

export * from './int-or-percent';
export * from './template-rules';
export * from './workload-columns';
export * from './workload-condition';
export * from './deployment';
export * from './replica-set';
export * from './daemon-set';
export * from './stateful-set';
export * from './controller-revision';

export const appsKinds = [
  DeploymentKind,
  ReplicaSetKind,
  DaemonSetKind,
  StatefulSetKind,
  ControllerRevisionKind,
];
