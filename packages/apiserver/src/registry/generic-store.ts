import {
  type GateEnabled,
  invalidStatus,
  apiVersionOf,
  generateName,
  type DeleteOptions,
  type FieldError,
  type KindDeclaration,
  type FieldsSelector,
  type LabelsSelector,
} from '@orch/api';
import type {
  KV,
  Storage,
  WatchEvent as StorageEvent,
  WatchHandle,
  WriteOptions as StorageWriteOptions,
} from '../storage/storage';
import { StorageError } from '../storage/storage-error';
import { statusErrors, successStatus, StatusError, toStatusError } from '../errors/status-error';
import { decodeContinue, encodeContinue } from './continue-token';
import { collectionPrefix, objectKey, resourcePrefix } from './keys';
import type { ListOptions } from './list-options';
import { clone, jsonEqual, nowTime, type ApiObject } from './object';
import { markShared, setAnswerJSON } from './answer-json';
import { stringifyMetadata } from './metadata-json';
import { checkFieldSelector, fieldsOf, objectMatcher, selectableFields } from './selection';
import type { PropagationPolicy, Strategy } from './strategy';
import { AdmissionChain, type AdmissionAttributes, type Operation } from '../admission/admission';
import type { UserInfo } from '../authn/authenticator';
import { fieldManagerFor } from '../fieldmanager/field-manager-for';

/** Who is asking and where: the parts of a request every store operation needs. */
export interface RequestScope {
  namespace: string;
  /** The apiVersion answers are written in (the version of the request path). */
  apiVersion: string;
  dryRun: boolean;
  /** The authenticated user, for admission. */
  user?: UserInfo;
}

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** How an update's transform may use the stored object it is given: see {@link GenericStore.update}. */
export type TransformAccess = 'copy' | 'shared';

export interface WriteOptions {
  fieldValidation: FieldValidation;
  /** Warnings for the response's Warning headers. */
  warnings: string[];
  /**
   * The Update operation to record in metadata.managedFields (apiVersion defaults to the request's);
   * absent when nothing is recorded (an apply records its own Apply operation).
   */
  managedBy?: { manager: string; apiVersion?: string; subresource?: string };
  /** Create the object when it is missing even where the kind does not create on update (apply). */
  forceAllowCreate?: boolean;
  /**
   * The UID the stored object must have (a PUT's metadata.uid, Kubernetes' UpdatedObjectInfo
   * preconditions): another one is a 409 Conflict, as is a missing object.
   */
  preconditionUID?: string;
  /**
   * The object written is the request's body as decoded (create, update), of this kind at this
   * version: strict decoding errors carry the decoder's prefix, `ConfigMap in version "v1" cannot
   * be handled as a ConfigMap:`, as Kubernetes reports them.
   */
  decodedAs?: { kind: string; version: string };
}

/** Kubernetes' strict decoding error (400), with the decoder's prefix for a decoded body. */
export function strictDecodingError(messages: readonly string[], decodedAs?: WriteOptions['decodedAs']) {
  const prefix = decodedAs
    ? `${decodedAs.kind} in version "${decodedAs.version}" cannot be handled as a ${decodedAs.kind}: `
    : '';
  return statusErrors.badRequest(`${prefix}strict decoding error: ${messages.join(', ')}`);
}

export interface ListResult {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: ApiObject[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchSink {
  event(type: WatchEventType, object: unknown): void;
  /** The watch ended on the server's side (history gone, storage failure). */
  error(e: StatusError): void;
}

/** An object's stored form (see GenericStore.encode). */
interface Encoded {
  bytes: Buffer;
  /** The `"key":value` texts of the stored object's fields, in order. */
  parts: string[];
  apiVersionAt: number;
  metadataAt: number;
  /** The stored metadata's JSON. */
  metadata: string;
}

/** One stored version of a key: what reading an object back needs of a KV or a storage event. */
type StoredVersion = Pick<KV, 'key' | 'value' | 'modRevision'>;

/** A write of a GenericStore waiting for storage: the object, its stored form and the answer's apiVersion. */
interface InFlightWrite {
  obj: ApiObject;
  encoded: Encoded;
  apiVersion: string;
}

/** How many of its latest writes a store keeps decoded (see GenericStore.recentWrites). */
const recentWritesKept = 1024;

/** The largest page a selective list reads from storage at once (Kubernetes' etcd store's maxLimit). */
const maxListPage = 10_000;

/** Objects larger than this are refused (etcd's default request limit). */
export const maxObjectBytes = 1.5 * 1024 * 1024;

/** The write of an update failed: its answer, whether the attempt started from a cached copy or not. */
class WriteFailed {
  constructor(readonly error: StatusError) {}
}

const conflictMessage =
  'the object has been modified; please apply your changes to the latest version and try again';

export interface GenericStoreOptions {
  /** Objects are deleted this many seconds after their last write (0 or absent: kept). */
  ttlSeconds?: number;
  /**
   * The objects answered carry `metadata.selfLink`, their path at the version asked for (the
   * RemoveSelfLink feature gate off, its default). Default false.
   */
  selfLinks?: boolean;
  /**
   * Writes keep `metadata.managedFields` and record their field managers in it (the ServerSideApply
   * feature gate on, its default). When false every create and update stores the object without
   * managedFields, as Kubernetes does with the gate off. Default true.
   */
  managedFields?: boolean;
  /**
   * Whether a feature gate is on: writes drop the fields of gates that are off (unless the object
   * updated already uses them). Every gate is on when not given.
   */
  featureEnabled?: GateEnabled;
}

/**
 * The one store serving every kind (Kubernetes' generic registry Store): create, get, list, watch,
 * update, delete and delete-collection over the storage interface, with the kind's strategy deciding
 * what is kind-specific.
 */
export class GenericStore {
  readonly declaration: KindDeclaration<any>;
  private readonly prefix: string;
  private readonly qualified: { group: string; resource: string };

  /** What every write passes to storage: the kind's time to live, if it has one. */
  private readonly writeOptions: StorageWriteOptions | undefined;
  private readonly selfLinks: boolean;
  private readonly managedFields: boolean;
  private readonly featureEnabled: GateEnabled;

  constructor(
    readonly storage: Storage,
    readonly strategy: Strategy,
    readonly admission: AdmissionChain = new AdmissionChain(),
    options: GenericStoreOptions = {},
  ) {
    this.declaration = strategy.declaration;
    // every write sets the time anew: an object lasts that long after its last change (Kubernetes' TTLFunc)
    if (options.ttlSeconds) this.writeOptions = { ttlSeconds: options.ttlSeconds };
    this.selfLinks = options.selfLinks ?? false;
    this.managedFields = options.managedFields ?? true;
    this.featureEnabled = options.featureEnabled ?? (() => true);
    this.prefix = resourcePrefix(this.declaration.group, this.declaration.plural);
    this.qualified = { group: this.declaration.group, resource: this.declaration.plural };
  }

  private key(namespace: string, name: string): string {
    return objectKey(
      this.declaration.group,
      this.declaration.plural,
      this.declaration.namespaced ? namespace : '',
      name,
    );
  }

  /**
   * Decodes a stored value into the object served at `apiVersion`, with the kind's defaults applied
   * as Kubernetes' storage decoder applies them: an object stored before a field with a default
   * existed reads as if it had been written with it (and an update cannot trip over its absence).
   */
  decode(kv: { value: Buffer; modRevision: number }, apiVersion: string): ApiObject {
    const obj = JSON.parse(kv.value.toString('utf8')) as ApiObject;
    this.strategy.compiled.default(obj, this.featureEnabled);
    obj.apiVersion = apiVersion;
    obj.kind = this.declaration.kind;
    // after the stored fields, as an answer put together from a write's encoding has them (see stored)
    this.link(obj, apiVersion);
    obj.metadata.resourceVersion = String(kv.modRevision);
    return obj;
  }

  /** Sets `metadata.selfLink` (when this store answers with self links): the object's path at `apiVersion`. */
  private link(obj: ApiObject, apiVersion: string): void {
    if (!this.selfLinks) return;
    const m = obj.metadata;
    const root = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const namespace = this.declaration.namespaced ? `/namespaces/${m.namespace ?? ''}` : '';
    m.selfLink = `${root}${namespace}/${this.declaration.plural}/${m.name ?? ''}`;
  }

  /**
   * Objects decoded for lists and watches, by apiVersion and stored KV: see {@link listed}. One
   * lookup of a KV in its version's map, not a map per KV: a list of 10,000 objects looks them up
   * in about half the time.
   */
  private readonly listedObjects = new Map<string, WeakMap<KV, ApiObject>>();

  /**
   * The object a list (or a watch's initial state, or an admission plugin's lookup) serves for a
   * stored KV. Decoded once per KV and apiVersion and shared by every reader of the same KV (the
   * watch cache hands out the same KV for the same revision), so callers must not change it.
   */
  listed(kv: KV, apiVersion: string): ApiObject {
    let objects = this.listedObjects.get(apiVersion);
    if (!objects) this.listedObjects.set(apiVersion, (objects = new WeakMap()));
    let obj = objects.get(kv);
    if (!obj) {
      objects.set(kv, (obj = this.readBack(kv, apiVersion)));
      markShared(obj);
    }
    return obj;
  }

  /** {@link decode}, or the object this store just wrote (or is writing) when `kv` is that write. */
  private readBack(kv: StoredVersion, apiVersion: string): ApiObject {
    const remembered = this.remembered(kv, apiVersion);
    if (remembered) return remembered;
    // The write's event usually reaches the watch cache's watchers before the writer resumes. A
    // copy of the object's top level is read back, so the writer's own object is never changed here
    // (a different revision with the same bytes cannot then alter what an earlier one gave out).
    const p = this.inFlight.get(kv.key);
    if (p && p.apiVersion === apiVersion && p.encoded.bytes.equals(kv.value)) {
      const copy = { ...p.obj, metadata: { ...p.obj.metadata } };
      return this.ownWrite(kv, { ...p, obj: copy });
    }
    return this.decode(kv, apiVersion);
  }

  /**
   * Writes of this store waiting for storage, by key: the object and its stored form, so that the
   * write's event is read back without parsing its bytes (see {@link readBack}).
   */
  private readonly inFlight = new Map<string, InFlightWrite>();

  /** `write` (the storage call that stores `encoded`), then the object as {@link decode} reads it back. */
  private async writeAndReadBack(
    key: string,
    obj: ApiObject,
    encoded: Encoded,
    apiVersion: string,
    write: () => Promise<KV>,
  ): Promise<ApiObject> {
    const entry: InFlightWrite = { obj, encoded, apiVersion };
    this.inFlight.set(key, entry);
    let kv: KV;
    try {
      kv = await write();
    } finally {
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
    }
    return this.ownWrite(kv, entry);
  }

  /** The object of this store's write `kv` ({@link stored}), remembered, or as its event read it back. */
  private ownWrite(kv: StoredVersion, { obj, encoded, apiVersion }: InFlightWrite): ApiObject {
    const remembered = this.remembered(kv, apiVersion);
    if (remembered) return remembered;
    const object = this.stored(obj, encoded, kv, apiVersion);
    this.rememberWrite(kv.key, object, kv.modRevision, apiVersion);
    // handed to the next update of the key and to the write's watchers, as listed objects are
    markShared(object);
    return object;
  }

  /** The object this store wrote as `kv`, if it still remembers that write at `apiVersion`. */
  private remembered(kv: StoredVersion, apiVersion: string): ApiObject | undefined {
    const w = this.recentWrites.get(kv.key);
    return w && w.modRevision === kv.modRevision && w.apiVersion === apiVersion ? w.object : undefined;
  }

  /**
   * The objects this store wrote last, by key, as {@link decode} reads them back: the next update of
   * a key (typically before the watch cache has decoded the new revision) starts from its own write
   * instead of parsing it again. Bounded; shared read-only like everything {@link listed} returns.
   */
  private readonly recentWrites = new Map<
    string,
    { modRevision: number; apiVersion: string; object: ApiObject }
  >();

  private rememberWrite(key: string, object: ApiObject, modRevision: number, apiVersion: string): void {
    this.recentWrites.delete(key);
    if (this.recentWrites.size >= recentWritesKept) {
      this.recentWrites.delete(this.recentWrites.keys().next().value!);
    }
    this.recentWrites.set(key, { modRevision, apiVersion, object });
  }

  /**
   * The object just written as {@link decode} would read it back. When the storage kept the bytes
   * `obj` was encoded to (a storage layer may rewrite them: services get their IPs allocated) that is
   * `obj` itself with what encoding sets differently, without parsing the bytes again; its JSON
   * answer is then put together from the encoding's parts as well.
   */
  private stored(obj: ApiObject, encoded: Encoded, kv: StoredVersion, apiVersion: string): ApiObject {
    if (!encoded.bytes.equals(kv.value)) return this.decode(kv, apiVersion);
    const kindUnchanged = obj.kind === this.declaration.kind;
    obj.apiVersion = apiVersion;
    obj.kind = this.declaration.kind;
    const m = obj.metadata;
    delete m.selfLink;
    delete m.resourceVersion;
    this.link(obj, apiVersion);
    m.resourceVersion = String(kv.modRevision);
    if (kindUnchanged) {
      // JSON.stringify(obj): the stored fields with the answer's apiVersion, and selfLink and
      // resourceVersion last
      const parts = encoded.parts.slice();
      parts[encoded.apiVersionAt] = `"apiVersion":${JSON.stringify(apiVersion)}`;
      const meta = encoded.metadata;
      const link = m.selfLink === undefined ? '' : `"selfLink":${JSON.stringify(m.selfLink)},`;
      const rv = `${link}"resourceVersion":${JSON.stringify(m.resourceVersion)}}`;
      parts[encoded.metadataAt] = `"metadata":${meta === '{}' ? `{${rv}` : `${meta.slice(0, -1)},${rv}`}`;
      setAnswerJSON(obj, Buffer.from(`{${parts.join(',')}}\n`));
    }
    return obj;
  }

  /**
   * The stored form of `obj`: its JSON at the storage version without resourceVersion and selfLink
   * (`JSON.stringify` of it), and the parts that text is made of.
   */
  private encode(obj: ApiObject): Encoded {
    const { resourceVersion: _rv, selfLink: _sl, ...metadata } = obj.metadata;
    const storageVersion = apiVersionOf(this.declaration.group, this.declaration.versions[0]!);
    const parts: string[] = [];
    let apiVersionAt = -1;
    let metadataAt = -1;
    let metadataJSON = '';
    const add = (key: string, json: string | undefined): void => {
      if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
    };
    // the fields in the order `{ ...obj, apiVersion, metadata }` has them
    for (const key of Object.keys(obj)) {
      if (key === 'apiVersion') {
        apiVersionAt = parts.length;
        add(key, JSON.stringify(storageVersion));
      } else if (key === 'metadata') {
        metadataAt = parts.length;
        add(key, (metadataJSON = stringifyMetadata(metadata)));
      } else add(key, JSON.stringify(obj[key]) as string | undefined);
    }
    if (apiVersionAt < 0) {
      apiVersionAt = parts.length;
      add('apiVersion', JSON.stringify(storageVersion));
    }
    if (metadataAt < 0) {
      metadataAt = parts.length;
      add('metadata', (metadataJSON = stringifyMetadata(metadata)));
    }
    const bytes = Buffer.from(`{${parts.join(',')}}`);
    if (bytes.length > maxObjectBytes) throw statusErrors.tooLarge('etcdserver: request is too large');
    return { bytes, parts, apiVersionAt, metadataAt, metadata: metadataJSON };
  }

  private attributes(
    operation: Operation,
    scope: RequestScope,
    object: ApiObject | undefined,
    oldObject: ApiObject | undefined,
    subresource: string,
  ): AdmissionAttributes {
    const meta = (object ?? oldObject)!.metadata;
    return {
      operation,
      declaration: this.declaration,
      resource: this.declaration.plural,
      subresource,
      namespace: this.declaration.namespaced ? (meta.namespace ?? scope.namespace) : '',
      name: meta.name ?? '',
      object,
      oldObject,
      user: scope.user,
      dryRun: scope.dryRun,
    };
  }

  /**
   * A body that fails validation: 422 Invalid, except values of the wrong JSON type, which Kubernetes'
   * decoder refuses with 400 before validation runs.
   */
  private invalid(name: string, errors: FieldError[]): StatusError {
    const typeErrors = errors.filter((e) => e.type === 'FieldValueTypeInvalid');
    if (typeErrors.length && !this.strategy.schemaTypeErrorsInvalid) {
      const kind = this.declaration.kind;
      // the decoder stops at its first error, and says it in its words when they are known
      const decoded = typeErrors.find((e) => e.decodeError !== undefined)?.decodeError;
      return statusErrors.badRequest(
        `${kind} in version "${this.declaration.versions[0]}" cannot be handled as a ${kind}: ${
          decoded ?? typeErrors.map((e) => `${e.field}: ${e.detail ?? ''}`).join(', ')
        }`,
      );
    }
    return new StatusError(invalidStatus(this.declaration.kind, this.declaration.group, name, errors));
  }

  /** Unknown fields: rejected, warned about or dropped, as the request's fieldValidation says. */
  private checkUnknown(obj: ApiObject, options: WriteOptions): void {
    const messages = this.strategy.compiled.prune(obj).unknown;
    if (!messages.length) return;
    if (options.fieldValidation === 'Strict') throw strictDecodingError(messages, options.decodedAs);
    if (options.fieldValidation === 'Warn') options.warnings.push(...messages);
  }

  /** Checks the body against the request: kind, apiVersion, namespace. */
  private checkIdentity(obj: ApiObject, scope: RequestScope, name?: string): void {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
      throw statusErrors.badRequest(
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      );
    }
    if (obj.kind !== undefined && obj.kind !== this.declaration.kind) {
      throw statusErrors.badRequest(
        `the kind in the data (${String(obj.kind)}) does not match the expected kind (${this.declaration.kind})`,
      );
    }
    if (obj.apiVersion !== undefined && obj.apiVersion !== scope.apiVersion) {
      throw statusErrors.badRequest(
        `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${scope.apiVersion})`,
      );
    }
    obj.apiVersion = scope.apiVersion;
    obj.kind = this.declaration.kind;
    if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
    if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) {
      throw statusErrors.badRequest('metadata must be an object');
    }
    const m = obj.metadata;
    if (this.declaration.namespaced) {
      if (m.namespace && scope.namespace && m.namespace !== scope.namespace) {
        throw statusErrors.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      if (!m.namespace) m.namespace = scope.namespace;
    } else {
      delete m.namespace;
    }
    if (name !== undefined) {
      if (m.name !== undefined && typeof m.name !== 'string') {
        throw statusErrors.badRequest('metadata.name must be a string');
      }
      // Kubernetes' checkName: a missing name does not match the URL's either
      if ((m.name ?? '') !== name) {
        throw statusErrors.badRequest(
          'the name of the object (' + (m.name ?? '') + ') does not match the name on the URL (' + name + ')',
        );
      }
      m.name = name;
    }
  }

  async create(scope: RequestScope, obj: ApiObject, options: WriteOptions): Promise<ApiObject> {
    this.checkIdentity(obj, scope);
    this.checkUnknown(obj, options);
    const m = obj.metadata;
    if (!m.name && m.generateName) m.name = generateName(m.generateName);
    const now = new Date();
    this.strategy.compiled.default(obj);
    this.strategy.compiled.dropDisabledFields(obj, undefined, this.featureEnabled);
    // the writer manages what it sent and its defaults, not what admission and the strategy add
    // (a pod's service account, tolerations and priority), as in Kubernetes' create handler
    this.recordUpdate(undefined, obj, scope, options, '', now);
    const attributes = this.attributes('CREATE', scope, obj, undefined, '');
    await this.admission.admit(attributes);
    this.strategy.prepareForCreate(obj, now, scope.user);
    const errors = this.strategy.validate(obj);
    if (errors.length) throw this.invalid(m.name ?? '', errors);
    await this.admission.validate(attributes);
    const key = this.key(m.namespace ?? '', m.name!);
    if (scope.dryRun) {
      if (await this.storage.get(key)) throw statusErrors.alreadyExists(this.qualified, m.name!);
      this.link(obj, scope.apiVersion);
      return obj;
    }
    try {
      const encoded = this.encode(obj);
      return await this.writeAndReadBack(key, obj, encoded, scope.apiVersion, () =>
        this.storage.create(key, encoded.bytes, this.writeOptions),
      );
    } catch (e) {
      if (e instanceof StorageError && e.code === 'KeyExists')
        throw statusErrors.alreadyExists(this.qualified, m.name!);
      throw toStatusError(e);
    }
  }

  /**
   * Records the write's Update operation in obj.metadata.managedFields (see WriteOptions.managedBy),
   * or drops managedFields from every write when this store does not keep them.
   */
  private recordUpdate(
    live: ApiObject | undefined,
    obj: ApiObject,
    scope: RequestScope,
    options: WriteOptions,
    subresource: string,
    now = new Date(),
  ): void {
    if (!this.managedFields) {
      delete obj.metadata.managedFields;
      return;
    }
    const by = options.managedBy;
    if (by === undefined) return;
    fieldManagerFor(this.declaration).update(
      live,
      obj,
      by.manager,
      by.apiVersion ?? scope.apiVersion,
      by.subresource ?? subresource,
      now,
    );
  }

  async get(scope: RequestScope, name: string): Promise<ApiObject> {
    return this.decode(await this.getKV(scope, name), scope.apiVersion);
  }

  /**
   * {@link get} for answering it: the object as {@link listed} serves it, shared with every reader
   * of the same stored version, so callers must not change it.
   */
  async read(scope: RequestScope, name: string): Promise<ApiObject> {
    return this.listed(await this.getKV(scope, name), scope.apiVersion);
  }

  /**
   * GET with `export` (deprecated): the object without what a user cannot specify, ready to create
   * elsewhere — no uid, creation and deletion timestamps, resourceVersion or selfLink, and what
   * creation resets (status, generation) as creation sets it; unless `exact`, no namespace, and no name
   * when the object has a generateName (Kubernetes' Store.Export).
   */
  async export(scope: RequestScope, name: string, exact: boolean): Promise<ApiObject> {
    const obj = structuredClone(await this.read(scope, name));
    this.strategy.prepareForCreate(obj, new Date(), scope.user);
    const m = obj.metadata;
    for (const field of [
      'uid',
      'creationTimestamp',
      'deletionTimestamp',
      'resourceVersion',
      'selfLink',
    ] as const)
      delete m[field];
    if (!exact) {
      delete m.namespace;
      if (m.generateName) delete m.name;
    }
    return obj;
  }

  private async getKV(scope: RequestScope, name: string): Promise<KV> {
    const kv = await this.storage.get(this.key(scope.namespace, name));
    if (!kv) throw statusErrors.notFound(this.qualified, name);
    return kv;
  }

  /** Field values of an object for fieldSelector matching. */
  fieldsOf(obj: ApiObject): Record<string, string> {
    return fieldsOf(this.declaration, obj);
  }

  /** Fields usable in a fieldSelector for this kind. */
  selectableFields(): Set<string> {
    return selectableFields(this.declaration);
  }

  private checkFieldSelector(selector: FieldsSelector): void {
    checkFieldSelector(this.declaration, selector);
  }

  private matcher(labels: LabelsSelector, fields: FieldsSelector): (obj: ApiObject) => boolean {
    return objectMatcher(this.declaration, labels, fields);
  }

  async list(scope: RequestScope, options: ListOptions): Promise<ListResult> {
    this.checkFieldSelector(options.fieldSelector);
    const prefix = collectionPrefix(
      this.declaration.group,
      this.declaration.plural,
      this.declaration.namespaced ? scope.namespace : '',
    );
    const matches = this.matcher(options.labelSelector, options.fieldSelector);
    let revision = 0;
    let startKey: string | undefined;
    let fromCache = false;
    if (options.continue) {
      const token = decodeContinue(options.continue);
      revision = token.revision;
      startKey = this.prefix + token.start;
      if (!startKey.startsWith(prefix))
        throw statusErrors.badRequest('continue key is not valid: the token belongs to another collection');
    } else if (options.resourceVersion === '0') {
      fromCache = true;
    } else if (options.resourceVersion) {
      const wanted = Number(options.resourceVersion);
      if (options.resourceVersionMatch === 'Exact') revision = wanted;
      else await this.waitForRevision(wanted);
    }
    const items: ApiObject[] = [];
    const limit = options.limit;
    let more: boolean;
    let remaining: number;
    let lastKey: string | undefined;
    // a page of what is still missing; doubled (up to maxListPage) while selectors drop items, as
    // Kubernetes' etcd store does, so a selective small-limit list does not read one key at a time
    let pageLimit = limit || undefined;
    for (;;) {
      let page;
      try {
        page = await this.storage.list(prefix, {
          revision: revision || undefined,
          limit: pageLimit,
          startKey,
          fromCache,
        });
      } catch (e) {
        if (e instanceof StorageError && e.code === 'Compacted' && options.continue) {
          throw await this.expiredContinue(startKey!);
        }
        if (e instanceof StorageError && e.code === 'Compacted') {
          throw statusErrors.resourceExpired(
            `too old resource version: ${revision} (${await this.storage.compactedRevision()})`,
          );
        }
        throw toStatusError(e);
      }
      revision = page.revision;
      let taken = 0;
      for (const kv of page.items) {
        if (limit && items.length >= limit) break;
        const obj = this.listed(kv, scope.apiVersion);
        if (matches(obj)) items.push(obj);
        lastKey = kv.key;
        taken++;
      }
      // the page's items after the last one taken are still to come
      more = page.more || taken < page.items.length;
      remaining = page.remaining + page.items.length - taken;
      if (!limit || !more || items.length >= limit) break;
      startKey = lastKey + '\x00';
      pageLimit = Math.min(pageLimit! * 2, maxListPage);
    }
    const metadata: ListResult['metadata'] = { resourceVersion: String(revision) };
    if (limit && more && lastKey !== undefined) {
      metadata.continue = encodeContinue({ revision, start: lastKey.slice(this.prefix.length) + '\x00' });
      if (options.labelSelector.empty() && options.fieldSelector.empty())
        metadata.remainingItemCount = remaining;
    }
    return {
      apiVersion: scope.apiVersion,
      kind: this.declaration.listKind ?? `${this.declaration.kind}List`,
      metadata,
      items,
    };
  }

  private async expiredContinue(startKey: string): Promise<StatusError> {
    const revision = await this.storage.currentRevision();
    const fresh = encodeContinue({ revision, start: startKey.slice(this.prefix.length) });
    return statusErrors.resourceExpired(
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      fresh,
    );
  }

  /** Waits until the store has reached `revision` (a list "not older than" a future version), 3 s at most. */
  private async waitForRevision(revision: number): Promise<void> {
    const deadline = Date.now() + 3000;
    for (;;) {
      const current = await this.storage.currentRevision();
      if (current >= revision) return;
      if (Date.now() > deadline) {
        throw statusErrors.timeout(`Too large resource version: ${revision}, current: ${current}`, 1, [
          { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
        ]);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Watches the collection (or one object when `name` is set). Without a resourceVersion, or with "0",
   * the current objects are sent first as ADDED events, as Kubernetes does.
   */
  async watch(
    scope: RequestScope,
    options: ListOptions,
    sink: WatchSink,
    name?: string,
  ): Promise<WatchHandle> {
    this.checkFieldSelector(options.fieldSelector);
    const prefix = name
      ? this.key(scope.namespace, name)
      : collectionPrefix(
          this.declaration.group,
          this.declaration.plural,
          this.declaration.namespaced ? scope.namespace : '',
        );
    const matches = this.matcher(options.labelSelector, options.fieldSelector);
    const everything = options.labelSelector.empty() && options.fieldSelector.empty();
    let from = options.resourceVersion ? Number(options.resourceVersion) : 0;
    if (!options.resourceVersion || options.resourceVersion === '0') {
      const initial = await this.storage.list(prefix, { fromCache: options.resourceVersion === '0' });
      for (const kv of initial.items) {
        if (name && kv.key !== prefix) continue;
        const obj = this.listed(kv, scope.apiVersion);
        if (matches(obj)) sink.event('ADDED', obj);
      }
      from = initial.revision;
    }
    const onEvent = (e: StorageEvent): void => {
      if (name && e.key !== prefix) return;
      this.deliver(e, scope.apiVersion, matches, sink, everything);
    };
    const onError = (err: Error): void => {
      if (err instanceof StorageError && err.code === 'Compacted') {
        sink.error(statusErrors.expired(`too old resource version: ${from} (${err.message})`));
      } else {
        sink.error(toStatusError(err));
      }
    };
    // bookmarks only with the WatchBookmark gate on: the parameter is ignored otherwise
    const bookmark =
      options.allowWatchBookmarks && this.featureEnabled('WatchBookmark')
        ? (revision: number): void =>
            sink.event('BOOKMARK', {
              kind: this.declaration.kind,
              apiVersion: scope.apiVersion,
              metadata: { resourceVersion: String(revision) },
            })
        : undefined;
    return this.storage.watch(prefix, from, onEvent, onError, bookmark ? { onBookmark: bookmark } : {});
  }

  /** Objects decoded from one storage event, shared (read-only) by every watcher the event reaches. */
  private readonly decodedEvents = new WeakMap<
    StorageEvent,
    Map<string, { obj: ApiObject; old?: ApiObject }>
  >();

  private decodedEvent(
    e: StorageEvent,
    apiVersion: string,
    needOld: boolean,
  ): { obj: ApiObject; old?: ApiObject } {
    let byVersion = this.decodedEvents.get(e);
    if (!byVersion) {
      byVersion = new Map();
      this.decodedEvents.set(e, byVersion);
    }
    let d = byVersion.get(apiVersion);
    if (!d) {
      d = {
        obj:
          e.type === 'delete'
            ? this.decode({ value: e.prevValue ?? e.value, modRevision: e.modRevision }, apiVersion)
            : this.readBack(e, apiVersion),
      };
      byVersion.set(apiVersion, d);
    }
    if (needOld && !d.old && e.prevValue)
      d.old = this.decode({ value: e.prevValue, modRevision: e.modRevision }, apiVersion);
    return d;
  }

  private deliver(
    e: StorageEvent,
    apiVersion: string,
    matches: (o: ApiObject) => boolean,
    sink: WatchSink,
    everything: boolean,
  ): void {
    const created = !e.prevValue || e.createRevision === e.modRevision;
    const { obj, old } = this.decodedEvent(e, apiVersion, !everything && e.type !== 'delete' && !created);
    if (e.type === 'delete') {
      if (matches(obj)) sink.event('DELETED', obj);
      return;
    }
    const nowMatches = matches(obj);
    if (created) {
      if (nowMatches) sink.event('ADDED', obj);
      return;
    }
    // with no selector the object matched before and matches now
    const oldMatches = everything || matches(old!);
    if (nowMatches && oldMatches) sink.event('MODIFIED', obj);
    else if (nowMatches) sink.event('ADDED', obj);
    else if (oldMatches) sink.event('DELETED', obj);
  }

  /**
   * Read-modify-write with optimistic concurrency: `transform` gets the stored object and returns the
   * new one (or throws). A precondition resourceVersion in the new object that differs from the stored
   * one is a 409 Conflict; without one, a concurrent write makes the loop retry on fresh data.
   *
   * With `access` 'copy' the transform gets its own deep copy of the stored object, to change as it
   * likes. With 'shared' it gets the object decoded once for every reader of that stored version
   * (see {@link listed}): it must not change it, and must return an object sharing nothing with it.
   * The object answered is shared the same way with later readers: callers must not change it.
   */
  async update(
    scope: RequestScope,
    name: string,
    transform: (current: ApiObject | undefined) => ApiObject,
    options: WriteOptions,
    subresource = '',
    access: TransformAccess = 'copy',
  ): Promise<{ object: ApiObject; created: boolean }> {
    const key = this.key(scope.namespace, name);
    // The first attempt starts from the watch cache's copy when it has one; a stale copy shows as a
    // conflicting write, or as a failure of the transform or of a check, and is then read again
    // from storage before anything is answered (Kubernetes' cachedExistingObject).
    let guess = scope.dryRun ? undefined : await this.storage.cached?.(key);
    for (let attempt = 0; ; attempt++) {
      const fresh = guess === undefined;
      const kv = guess ?? (await this.storage.get(key));
      guess = undefined;
      let written: { object: ApiObject; created: boolean } | 'retry';
      try {
        written = await this.updateFrom(kv, key, scope, name, transform, options, subresource, access, fresh);
      } catch (e) {
        if (e instanceof WriteFailed) throw e.error;
        if (fresh) throw e;
        continue;
      }
      if (written !== 'retry') return written;
      if (attempt >= 16) throw statusErrors.conflict(this.qualified, name, conflictMessage);
    }
  }

  /**
   * One attempt of {@link update} from the stored `kv` (read now, or the cache's copy when not
   * `fresh`): the answer, or 'retry' when a concurrent write got in between and the update has no
   * precondition of its own, or when a copy that is not fresh leaves nothing to write. Any failure
   * working from such a copy may be due to its age.
   */
  private async updateFrom(
    kv: KV | undefined,
    key: string,
    scope: RequestScope,
    name: string,
    transform: (current: ApiObject | undefined) => ApiObject,
    options: WriteOptions,
    subresource: string,
    access: TransformAccess,
    fresh: boolean,
  ): Promise<{ object: ApiObject; created: boolean } | 'retry'> {
    // shared and read-only from here on: what is written is `obj`, built by the transform
    const current = kv ? this.listed(kv, scope.apiVersion) : undefined;
    const obj = transform(current && access === 'copy' ? clone(current) : current);
    this.checkIdentity(obj, scope, name);
    this.checkUnknown(obj, options);
    // checked against the stored object, or an empty one when there is none (as etcd3's store does)
    const refusal = preconditionRefusal(
      options.preconditionUID ? { uid: options.preconditionUID } : undefined,
      current ?? ({ metadata: {} } as ApiObject),
    );
    if (refusal) throw statusErrors.conflict(this.qualified, name, refusal);
    if (!current) {
      if ((!this.strategy.allowCreateOnUpdate && !options.forceAllowCreate) || subresource)
        throw statusErrors.notFound(this.qualified, name);
      const created = await this.create(scope, obj, options);
      return { object: created, created: true };
    }
    const precondition = obj.metadata.resourceVersion;
    if (precondition && precondition !== current.metadata.resourceVersion) {
      throw statusErrors.conflict(this.qualified, name, conflictMessage);
    }
    if (!precondition && !this.strategy.allowUnconditionalUpdate) {
      throw this.invalid(name, [
        {
          type: 'FieldValueRequired',
          field: 'metadata.resourceVersion',
          detail: 'must be specified for an update',
        },
      ]);
    }
    this.strategy.compiled.default(obj);
    this.strategy.compiled.dropDisabledFields(obj, current, this.featureEnabled);
    const attributes = this.attributes('UPDATE', scope, obj, current, subresource);
    await this.admission.admit(attributes);
    if (subresource === 'status') {
      // status writes keep the managed fields they computed (Kubernetes' ResetObjectMetaForStatus)
      const managedFields = obj.metadata.managedFields;
      this.strategy.prepareForStatusUpdate(obj, current);
      if (managedFields === undefined) delete obj.metadata.managedFields;
      else obj.metadata.managedFields = managedFields;
    } else this.strategy.prepareForUpdate(obj, current, subresource);
    this.recordUpdate(current, obj, scope, options, subresource);
    const errors = this.strategy.validateUpdate(obj, current, subresource, this.featureEnabled);
    if (errors.length) throw this.invalid(name, errors);
    await this.admission.validate(attributes);
    this.link(obj, scope.apiVersion);
    obj.metadata.resourceVersion = current.metadata.resourceVersion;
    if (jsonEqual(obj, current)) {
      // nothing to write: true of the stored object only if the copy is current
      return fresh ? { object: current, created: false } : 'retry';
    }
    // a conflicting write is made again on a fresh read unless the caller's own precondition failed;
    // a precondition checked against a copy that is not fresh proves nothing
    const retryable = (e: unknown) =>
      e instanceof StorageError && e.code === 'Conflict' && (!precondition || !fresh);
    if (this.strategy.finished(obj)) {
      // the last finalizer is gone from an object being deleted: the delete completes now
      if (scope.dryRun) return { object: obj, created: false };
      try {
        await this.storage.delete(key, kv!.modRevision);
        return { object: obj, created: false };
      } catch (e) {
        if (retryable(e)) return 'retry';
        throw new WriteFailed(this.writeFailure(e, name));
      }
    }
    if (scope.dryRun) return { object: obj, created: false };
    const encoded = this.encode(obj);
    try {
      const object = await this.writeAndReadBack(key, obj, encoded, scope.apiVersion, () =>
        this.storage.update(key, encoded.bytes, kv!.modRevision, this.writeOptions),
      );
      return { object, created: false };
    } catch (e) {
      if (retryable(e)) return 'retry';
      throw new WriteFailed(this.writeFailure(e, name));
    }
  }

  private writeFailure(e: unknown, name: string): StatusError {
    if (e instanceof StorageError && e.code === 'Conflict')
      return statusErrors.conflict(this.qualified, name, conflictMessage);
    if (e instanceof StorageError && e.code === 'NotFound')
      return statusErrors.notFound(this.qualified, name);
    return toStatusError(e);
  }

  /**
   * Deletes one object: at once, or — with a grace period, finalizers or a Foreground/Orphan
   * propagation — by marking it with deletionTimestamp for its owners to finish.
   */
  async delete(
    scope: RequestScope,
    name: string,
    options: DeleteOptions,
  ): Promise<{ result: unknown; deletedNow: boolean }> {
    const key = this.key(scope.namespace, name);
    // starts from the watch cache's copy, as update does; whatever it would refuse or leave as it is
    // is decided again on a fresh read
    let guess = scope.dryRun ? undefined : await this.storage.cached?.(key);
    for (let attempt = 0; ; attempt++) {
      const fresh = guess === undefined;
      const kv = guess ?? (await this.storage.get(key));
      guess = undefined;
      if (!kv) throw statusErrors.notFound(this.qualified, name);
      const obj = this.decode(kv, scope.apiVersion);
      const refusal = preconditionRefusal(options.preconditions, obj);
      if (refusal) {
        if (!fresh) continue;
        throw statusErrors.conflict(this.qualified, name, refusal);
      }
      try {
        await this.admission.validate(this.attributes('DELETE', scope, undefined, obj, ''));
      } catch (e) {
        if (!fresh) continue;
        throw e;
      }
      const now = new Date();
      const updated = clone(obj);
      const policy = propagationOf(options, this.strategy.defaultPropagation);
      const finalizers = new Set(updated.metadata.finalizers ?? []);
      if (policy === 'Orphan') finalizers.add('orphan');
      if (policy === 'Foreground') finalizers.add('foregroundDeletion');
      if (policy === 'Background' || (policy === undefined && options.orphanDependents === false)) {
        finalizers.delete('orphan');
        finalizers.delete('foregroundDeletion');
      }
      const keptByKind = this.strategy.beforeDelete(updated, now);
      // finalizers the kind puts on an object it keeps (a definition's customresourcecleanup)
      for (const f of updated.metadata.finalizers ?? [])
        if (!(obj.metadata.finalizers ?? []).includes(f)) finalizers.add(f);
      const grace = this.strategy.gracePeriod(updated, options.gracePeriodSeconds);
      const pending = keptByKind || finalizers.size > 0 || (grace !== undefined && grace > 0);
      if (!pending) {
        if (scope.dryRun) return { result: this.deletedResult(obj), deletedNow: true };
        try {
          await this.storage.delete(key, kv.modRevision);
          return { result: this.deletedResult(obj), deletedNow: true };
        } catch (e) {
          if (e instanceof StorageError && e.code === 'Conflict' && attempt < 16) continue;
          throw this.writeFailure(e, name);
        }
      }
      const m = updated.metadata;
      if (finalizers.size) m.finalizers = [...finalizers];
      else delete m.finalizers;
      if (!m.deletionTimestamp) {
        m.deletionTimestamp = nowTime(new Date(now.getTime() + (grace ?? 0) * 1000));
        m.deletionGracePeriodSeconds = grace ?? 0;
      } else if (grace !== undefined && grace < (m.deletionGracePeriodSeconds ?? Infinity)) {
        // a shorter grace period may replace a longer one
        m.deletionTimestamp = nowTime(new Date(now.getTime() + grace * 1000));
        m.deletionGracePeriodSeconds = grace;
      }
      if (scope.dryRun) return { result: updated, deletedNow: false };
      if (jsonEqual(updated, obj)) {
        if (!fresh) continue;
        return { result: obj, deletedNow: false };
      }
      try {
        const written = await this.storage.update(
          key,
          this.encode(updated).bytes,
          kv.modRevision,
          this.writeOptions,
        );
        return { result: this.decode(written, scope.apiVersion), deletedNow: false };
      } catch (e) {
        if (e instanceof StorageError && e.code === 'Conflict' && attempt < 16) continue;
        throw this.writeFailure(e, name);
      }
    }
  }

  private deletedResult(obj: ApiObject): unknown {
    if (this.strategy.returnDeletedObject) return obj;
    return successStatus({
      name: obj.metadata.name ?? '',
      group: this.declaration.group,
      kind: this.declaration.plural,
      uid: obj.metadata.uid ?? '',
    });
  }

  /** Deletes every object the list options select; answers with the list of what was deleted. */
  async deleteCollection(
    scope: RequestScope,
    listOptions: ListOptions,
    options: DeleteOptions,
  ): Promise<ListResult> {
    const listed = await this.list(scope, { ...listOptions, limit: 0, continue: undefined });
    const deleted: ApiObject[] = [];
    for (const item of listed.items) {
      try {
        await this.delete(
          { ...scope, namespace: item.metadata.namespace ?? '' },
          item.metadata.name!,
          options,
        );
        // Kubernetes answers with the objects as listed (a delete's own answer may be a Status)
        deleted.push(item);
      } catch (e) {
        if (e instanceof StatusError && e.code === 404) continue;
        throw e;
      }
    }
    return { ...listed, items: deleted };
  }

  /** For tests and tools: the stored objects under this resource. */
  async count(): Promise<number> {
    return (await this.storage.list(this.prefix)).items.length;
  }
}

function propagationOf(options: DeleteOptions, fallback: PropagationPolicy): PropagationPolicy | undefined {
  if (options.propagationPolicy) return options.propagationPolicy as PropagationPolicy;
  if (options.orphanDependents === true) return 'Orphan';
  if (options.orphanDependents === false) return 'Background';
  return fallback === 'Background' ? undefined : fallback;
}

export type { KV };

/** Why a delete's preconditions refuse the object (Kubernetes' wording), or undefined when they hold. */
function preconditionRefusal(pre: DeleteOptions['preconditions'], obj: ApiObject): string | undefined {
  if (pre?.uid && pre.uid !== obj.metadata.uid) {
    return `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`;
  }
  if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
    return `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`;
  }
  return undefined;
}
