import type { Static } from '@sinclair/typebox';
import { bool, field, int32, str, struct, time } from '../../schema/fields';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

export const ContainerStateWaitingSchema = struct(core('ContainerStateWaiting'), {
  reason: str({ proto: 1, description: 'Brief reason the container is not running yet.' }),
  message: str({ proto: 2, description: 'Why the container is not running yet.' }),
});
export type ContainerStateWaiting = Static<typeof ContainerStateWaitingSchema>;

export const ContainerStateRunningSchema = struct(core('ContainerStateRunning'), {
  startedAt: time({ proto: 1, description: 'When the container was last (re)started.' }),
});
export type ContainerStateRunning = Static<typeof ContainerStateRunningSchema>;

export const ContainerStateTerminatedSchema = struct(core('ContainerStateTerminated'), {
  exitCode: int32({ proto: 1, description: 'Exit status of the last termination.' }),
  signal: int32({ proto: 2, description: 'Signal of the last termination.' }),
  reason: str({ proto: 3, description: 'Brief reason of the last termination.' }),
  message: str({ proto: 4, description: 'Message about the last termination.' }),
  startedAt: time({ proto: 5, description: 'When the previous run started.' }),
  finishedAt: time({ proto: 6, description: 'When the container last terminated.' }),
  containerID: str({ proto: 7, description: "Container ID, as '<runtime>://<id>'." }),
});
export type ContainerStateTerminated = Static<typeof ContainerStateTerminatedSchema>;

export const ContainerStateSchema = struct(core('ContainerState'), {
  waiting: field(ContainerStateWaitingSchema, {
    proto: 1,
    description: 'Set while the container waits to run.',
  }),
  running: field(ContainerStateRunningSchema, { proto: 2, description: 'Set while the container runs.' }),
  terminated: field(ContainerStateTerminatedSchema, {
    proto: 3,
    description: 'Set once the container terminated.',
  }),
});
export type ContainerState = Static<typeof ContainerStateSchema>;

export const ContainerStatusSchema = struct(core('ContainerStatus'), {
  name: str({ proto: 1, description: 'Name of the container (DNS_LABEL), unique within the pod.' }),
  state: field(ContainerStateSchema, { proto: 2, description: 'Current condition of the container.' }),
  lastState: field(ContainerStateSchema, {
    proto: 3,
    description: 'Last termination condition of the container.',
  }),
  ready: bool({ proto: 4, description: 'Whether the container passed its readiness probe.' }),
  restartCount: int32({
    proto: 5,
    description: 'Restarts counted from dead containers not yet removed (capped at 5 by garbage collection).',
  }),
  image: str({ proto: 6, description: 'Image the container runs.' }),
  imageID: str({ proto: 7, description: 'ID of the image the container runs.' }),
  containerID: str({ proto: 8, description: "Container ID, as '<runtime>://<id>'." }),
  started: bool({
    proto: 9,
    description:
      'False until the startup probe succeeds, false again on restart; true when there is no startup probe.',
  }),
});
export type ContainerStatus = Static<typeof ContainerStatusSchema>;
