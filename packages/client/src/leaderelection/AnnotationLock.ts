import { ConfigMapKind, EndpointsKind } from '@orch/api';
import type { RestClient } from '../rest/RestClient';
import { clientFor } from '../typed/clientFor';
import type { TypedClient } from '../typed/TypedClient';
import type { KubeObject } from '../types';
import { LEADER_ANNOTATION, parseRecord, type LeaderElectionRecord } from './LeaderElectionRecord';
import type { LockConfig, LockState, ResourceLock } from './ResourceLock';

/**
 * The old-style lock: the JSON record in the `control-plane.alpha.kubernetes.io/leader` annotation
 * of an Endpoints or ConfigMap object.
 */
export class AnnotationLock implements ResourceLock {
  private readonly objects: TypedClient<KubeObject>;
  private object: KubeObject | undefined;

  constructor(
    rest: RestClient,
    private readonly kind: 'endpoints' | 'configmaps',
    private readonly config: LockConfig,
  ) {
    const declaration = kind === 'endpoints' ? EndpointsKind : ConfigMapKind;
    this.objects = clientFor(rest, declaration, {
      namespace: config.namespace,
    }) as unknown as TypedClient<KubeObject>;
  }

  /**
   * The record, with the object's resourceVersion in the raw form: the record's times have only
   * second precision, so two renewals within a second write the same annotation, and candidates
   * must still see every renewal as a change.
   */
  async get(signal?: AbortSignal): Promise<LockState> {
    this.object = await this.objects.get(this.config.name, signal ? { signal } : {});
    const annotation = this.object.metadata?.annotations?.[LEADER_ANNOTATION];
    const raw = `${this.object.metadata?.resourceVersion ?? ''}/${annotation ?? ''}`;
    // An object without the annotation holds an empty record.
    return { record: parseRecord(annotation ?? '{}'), raw };
  }

  async create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    this.object = await this.objects.create(
      {
        metadata: {
          name: this.config.name,
          namespace: this.config.namespace,
          annotations: { [LEADER_ANNOTATION]: JSON.stringify(record) },
        },
      },
      signal ? { signal } : {},
    );
  }

  async update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    if (!this.object) {
      throw new Error(`${this.kind} not initialized, call get or create first`);
    }
    const metadata = this.object.metadata ?? {};
    this.object = await this.objects.update(
      {
        ...this.object,
        metadata: {
          ...metadata,
          annotations: { ...metadata.annotations, [LEADER_ANNOTATION]: JSON.stringify(record) },
        },
      },
      signal ? { signal } : {},
    );
  }

  identity(): string {
    return this.config.identity;
  }

  describe(): string {
    return `${this.config.namespace}/${this.config.name}`;
  }
}
