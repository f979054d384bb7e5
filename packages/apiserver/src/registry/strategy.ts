import { randomUUID } from 'node:crypto';
import {
  compileKind,
  type CompiledKind,
  type FieldError,
  type GateEnabled,
  type KindDeclaration,
} from '@orch/api';
import { jsonEqual, nowTime, type ApiObject } from './object';
import type { SubresourceHandler } from './custom-handlers';
import type { UserInfo } from '../authn/authenticator';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/**
 * Per-kind behaviour of the generic store (Kubernetes' RESTCreateStrategy, RESTUpdateStrategy and
 * RESTDeleteStrategy). The generic strategy is derived from the declaration; kinds with behaviour of
 * their own extend it in `strategies/`.
 */
export class Strategy {
  readonly compiled: CompiledKind;
  readonly hasStatus: boolean;
  /**
   * The status a new object starts with: the declared defaults of an empty status (a claim's phase
   * Pending, a service's empty loadBalancer), as Kubernetes' decoder defaults a status reset on create.
   */
  private readonly initialStatus: unknown;
  /** The status struct's zero value (its always-written scalars), read from the schema once. */
  private readonly zeroStatus: Record<string, unknown>;
  /** PUT on a missing object creates it. */
  allowCreateOnUpdate = false;
  /** PUT without metadata.resourceVersion is accepted. */
  allowUnconditionalUpdate = true;
  /** A successful delete answers with the deleted object instead of a Status. */
  returnDeletedObject = false;
  /**
   * A value of the wrong JSON type is a 422 field error (custom resources, validated against their
   * schema) rather than the decoder's 400 BadRequest of built-in kinds.
   */
  readonly schemaTypeErrorsInvalid: boolean = false;
  /**
   * The status is a Go struct: never absent, at least `{}` (`kubectl get -o yaml` shows `status: {}`
   * for an object no controller has written yet). Custom resources have no such status.
   */
  protected readonly statusStruct: boolean = true;
  /** Propagation when a delete request names none. */
  defaultPropagation: PropagationPolicy = 'Background';
  /** The kind's own subresources (binding, eviction, finalize, token, ...) by name. */
  readonly subresources: Record<string, SubresourceHandler> = {};
  /**
   * Subresources served as Kubernetes' connecters (proxy): their handler reads the request's body
   * from the HTTP request itself, neither buffered nor decoded.
   */
  readonly connectSubresources: readonly string[] = [];
  /**
   * Subresources that are views of the object itself (get, update and patch the whole object; what an
   * update through one may change is {@link prepareForStatusUpdate}'s or {@link prepareForUpdate}'s
   * to decide): status when the kind has one.
   */
  readonly objectSubresources: readonly string[];

  constructor(readonly declaration: KindDeclaration<any>) {
    this.compiled = compileKind(declaration);
    this.hasStatus = Boolean(declaration.subresources?.status);
    this.objectSubresources = this.hasStatus ? ['status'] : [];
    const blank: ApiObject = { metadata: {} } as ApiObject;
    this.compiled.default(blank);
    this.initialStatus = this.hasStatus ? blank.status : undefined;
    this.zeroStatus = zeroStruct(declaration.schema, 'status');
  }

  /** Generation is kept as the kind declares, else for kinds with a spec and a status subresource. */
  protected get tracksGeneration(): boolean {
    return (
      this.declaration.generation ??
      (this.hasStatus && 'spec' in ((this.declaration.schema as { properties?: object }).properties ?? {}))
    );
  }

  /** Server-set fields of a new object; status is not settable on create. */
  prepareForCreate(obj: ApiObject, now: Date, _user?: UserInfo): void {
    const m = obj.metadata;
    m.uid = randomUUID();
    m.creationTimestamp = nowTime(now);
    delete m.deletionTimestamp;
    delete m.deletionGracePeriodSeconds;
    delete m.resourceVersion;
    delete m.selfLink;
    if (this.tracksGeneration) m.generation = 1;
    else delete m.generation;
    if (this.hasStatus) this.setStatus(obj, structuredClone(this.initialStatus));
  }

  /**
   * Carries the server-owned parts of the stored object into an update: through the main resource
   * status is kept; through a kind's own subresource (binding, finalize, ...) the handler built the
   * whole object and only system metadata is kept.
   */
  prepareForUpdate(obj: ApiObject, old: ApiObject, subresource = ''): void {
    this.keepSystemMetadata(obj, old);
    if (subresource) return;
    if (this.hasStatus) this.setStatus(obj, old.status);
    if (this.tracksGeneration) {
      obj.metadata.generation = (old.metadata.generation ?? 0) + (this.specChanged(obj, old) ? 1 : 0);
    }
  }

  /** An update through the status subresource changes nothing but status. */
  prepareForStatusUpdate(obj: ApiObject, old: ApiObject): void {
    const status = obj.status;
    const keep = structuredClone(old) as ApiObject;
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, keep);
    this.setStatus(obj, status);
  }

  /** Sets the status (the struct's zero value for none when the status is a struct; else none). */
  private setStatus(obj: ApiObject, status: unknown): void {
    if (status !== undefined) obj.status = status;
    else if (this.statusStruct) obj.status = { ...this.zeroStatus };
    else delete obj.status;
  }

  /**
   * Kubernetes' BeforeUpdate: a missing uid, the creation timestamp, a deletion timestamp already set
   * and a missing deletion grace period are the stored object's; a uid, deletion timestamp or grace
   * period the update changes is left for update validation to refuse (`field is immutable`).
   */
  private keepSystemMetadata(obj: ApiObject, old: ApiObject): void {
    const m = obj.metadata;
    const o = old.metadata;
    if (!m.uid) m.uid = o.uid;
    if (o.creationTimestamp) m.creationTimestamp = o.creationTimestamp;
    if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp;
    if (m.deletionTimestamp === null) delete m.deletionTimestamp;
    if (m.deletionGracePeriodSeconds === null) delete m.deletionGracePeriodSeconds;
    if (o.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds === undefined)
      m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
    if (o.generation !== undefined) m.generation = o.generation;
    delete m.selfLink;
  }

  /** True when anything besides metadata and status changed. */
  protected specChanged(obj: ApiObject, old: ApiObject): boolean {
    for (const k of new Set([...Object.keys(obj), ...Object.keys(old)])) {
      if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue;
      if (!jsonEqual(obj[k], old[k])) return true;
    }
    return false;
  }

  validate(obj: ApiObject): FieldError[] {
    return this.compiled.validate(obj);
  }

  /**
   * Update validation. A kind's own subresource (binding, finalize, ...) is a server-side operation that
   * changes fields the main resource may not (a pod's nodeName): its result is validated as an object,
   * without the update rules of the main resource. `enabled` gives the server's feature gates.
   */
  validateUpdate(obj: ApiObject, old: ApiObject, subresource = '', enabled?: GateEnabled): FieldError[] {
    if (subresource && subresource !== 'status' && subresource !== 'scale')
      return this.compiled.validate(obj);
    return this.compiled.validateUpdate(obj, old, enabled);
  }

  /**
   * The grace period a delete gets: undefined deletes at once; a number marks the object with
   * deletionTimestamp and deletionGracePeriodSeconds and leaves the final delete to its owner.
   */
  gracePeriod(_obj: ApiObject, _requested: number | undefined): number | undefined {
    return undefined;
  }

  /** True when an object being deleted has nothing left holding it and goes now (after an update). */
  finished(obj: ApiObject): boolean {
    return (
      Boolean(obj.metadata.deletionTimestamp) &&
      !(obj.metadata.finalizers ?? []).length &&
      !this.graceful(obj)
    );
  }

  /** True while an object marked for deletion still waits for its grace period's owner (pods). */
  protected graceful(obj: ApiObject): boolean {
    return (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0;
  }

  /**
   * Called when a delete finds the object; returns true when the kind keeps it (as a namespace
   * becomes Terminating), throws when the kind refuses the delete (the system priority classes).
   */
  beforeDelete(_obj: ApiObject, _now: Date): boolean {
    return false;
  }
}

/**
 * The zero value of a struct field of `schema`, as Go's JSON writes it: `{}` with the zero of each
 * field that is always written (the declared required scalars: `currentReplicas: 0`,
 * `attached: false`).
 */
function zeroStruct(schema: object, field: string): Record<string, unknown> {
  type StructNode = { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const node = (schema as { properties?: Record<string, StructNode> }).properties?.[field];
  const zero: Record<string, unknown> = {};
  for (const name of node?.required ?? []) {
    const type = node?.properties?.[name]?.type;
    if (type === 'integer' || type === 'number') zero[name] = 0;
    else if (type === 'boolean') zero[name] = false;
    else if (type === 'string') zero[name] = '';
  }
  return zero;
}
