import { formatTime } from '@orch/api';
import { clientFor, type KubeObject, type RestClient, type TypedClient } from '@orch/client';
import { RESOURCES } from './resources';

export type EventType = 'Normal' | 'Warning';

/** Records events about objects. */
export interface EventRecorder {
  event(obj: KubeObject, type: EventType, reason: string, message: string): void;
}

/** Posts core/v1 Events named `<object>.<hex nanoseconds>` as Kubernetes' recorder does; failures are only reported. */
export class ApiEventRecorder implements EventRecorder {
  private readonly events: TypedClient;

  constructor(
    client: RestClient,
    private readonly component: string,
    private readonly onError: (err: unknown) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.events = clientFor(client, RESOURCES.events);
  }

  event(obj: KubeObject, type: EventType, reason: string, message: string): void {
    const meta = obj.metadata ?? {};
    const namespace = meta.namespace || 'default';
    const t = this.now();
    const time = formatTime(t);
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${meta.name}.${(BigInt(t) * 1_000_000n).toString(16)}`, namespace },
      involvedObject: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        name: meta.name,
        namespace: meta.namespace,
        uid: meta.uid,
        resourceVersion: meta.resourceVersion,
      },
      reason,
      message,
      type,
      source: { component: this.component },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
    };
    this.events.create(event).catch(this.onError);
  }
}

/** Keeps events in memory (tests). */
export class MemoryEventRecorder implements EventRecorder {
  readonly events: { name: string; type: EventType; reason: string; message: string }[] = [];

  event(obj: KubeObject, type: EventType, reason: string, message: string): void {
    this.events.push({ name: obj.metadata?.name ?? '', type, reason, message });
  }
}
