import { PodKind } from './pod';
import { PodTemplateKind } from './pod-template';
import { ReplicationControllerKind } from './replication-controller';

/** The kinds of the Pod family of core/v1. */
export const podFamilyKinds = [PodKind, PodTemplateKind, ReplicationControllerKind];
