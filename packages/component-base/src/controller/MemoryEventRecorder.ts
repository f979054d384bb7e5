import type { ObjectReference } from '@orch/api';
import type { EventRecorder, EventType, KubeObject } from '@orch/client';

/** An event recorder keeping events in memory (tests and in-process runs). */
export class MemoryEventRecorder implements EventRecorder {
  readonly events: { name: string; type: EventType; reason: string; message: string }[] = [];

  event(obj: KubeObject | ObjectReference, type: EventType, reason: string, message: string): void {
    const name = 'metadata' in obj ? (obj as KubeObject).metadata?.name : (obj as ObjectReference).name;
    this.events.push({ name: name ?? '', type, reason, message });
  }

  annotatedEvent(
    obj: KubeObject | ObjectReference,
    _annotations: Record<string, string>,
    type: EventType,
    reason: string,
    message: string,
  ): void {
    this.event(obj, type, reason, message);
  }
}
