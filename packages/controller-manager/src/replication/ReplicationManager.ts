import { ReplicationControllerKind, type ReplicationController } from '@orch/api';
import { clientFor } from '@orch/client';
import type { ControllerContext } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { ReplicaSetController, type ReplicatedKind } from '../replicaset/ReplicaSetController';
import { replicationControllerSelector } from './replicationControllerSelector';

export const REPLICATION_CONTROLLER_GVK = { group: '', version: 'v1', kind: 'ReplicationController' };

/** The ReplicaSet controller's view of ReplicationControllers. */
export const REPLICATION_CONTROLLER_KIND: ReplicatedKind<ReplicationController> = {
  name: 'replicationcontroller',
  resource: RESOURCES.replicationcontrollers,
  gvk: REPLICATION_CONTROLLER_GVK,
  client: (rest) => clientFor(rest, ReplicationControllerKind),
  selector: replicationControllerSelector,
};

/**
 * Keeps the number of pods of every ReplicationController at its replicas (Kubernetes'
 * ReplicationManager): the ReplicaSet controller run over ReplicationControllers, with the same
 * status, conditions and events.
 */
export class ReplicationManager extends ReplicaSetController<ReplicationController> {
  constructor(ctx: ControllerContext) {
    super(ctx, REPLICATION_CONTROLLER_KIND);
  }
}
