import {
  customResourceCleanupFinalizer,
  customResourceKind,
  everythingFields,
  everythingLabels,
  type CustomResourceDefinition,
  type CustomResourceDefinitionNames,
  type KindDeclaration,
  type RESTMapper,
  type RESTMapping,
} from '@orch/api';
import { StatusError, statusErrors } from '../errors/status-error';
import type { GenericStore } from '../registry/generic-store';
import { resourcePrefix } from '../registry/keys';
import { clone, jsonEqual, type ApiObject } from '../registry/object';
import { setDefinitionCondition } from '../registry/strategies/custom-resource-definition-strategy';
import type { Storage, WatchHandle } from '../storage/storage';

const group = 'apiextensions.k8s.io';

/** The names a resource is known by (a kind's declaration or a definition's accepted names). */
type Names = Pick<KindDeclaration<any>, 'plural' | 'singular' | 'shortNames' | 'kind' | 'listKind'>;
const apiVersion = `${group}/v1`;

/** What the controller needs of the API server it runs in. */
export interface CustomResourceHost {
  readonly mapper: RESTMapper;
  readonly storage: Storage;
  storeFor(mapping: RESTMapping): GenericStore;
  /** Serves a kind (replacing what was served under its group and plural). */
  install(decl: KindDeclaration<any>): Promise<void>;
  /** Stops serving a group's resource. */
  uninstall(group: string, plural: string): Promise<void>;
}

/**
 * The API server's half of apiextensions-apiserver: it watches CustomResourceDefinitions and, for
 * each, accepts its names (or reports the conflict), marks it Established and serves its kind; when
 * a definition is deleted it deletes every object of the kind, then drops the cleanup finalizer so
 * that the definition goes, and stops serving the kind. Every API server sharing a store runs it:
 * status writes are idempotent and conditional.
 */
export class CustomResourceDefinitions {
  /** The group and plural each definition serves, by definition name. */
  private readonly served = new Map<string, { group: string; plural: string }>();
  private watch?: WatchHandle;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly retries = new Set<NodeJS.Timeout>();

  constructor(private readonly host: CustomResourceHost) {}

  private get store(): GenericStore {
    return this.host.storeFor(this.host.mapper.forResource(group, 'v1', 'customresourcedefinitions')!);
  }

  /**
   * Serves every stored definition, then follows changes. Resolves once the stored ones were
   * reconciled once (a definition whose objects are still being deleted is retried later).
   */
  async start(): Promise<void> {
    const prefix = resourcePrefix(group, 'customresourcedefinitions');
    const page = await this.host.storage.list(prefix, {});
    for (const kv of page.items) await this.enqueue(this.store.listed(kv, apiVersion).metadata.name!);
    this.watch = await this.host.storage.watch(
      prefix,
      page.revision,
      (event) => this.enqueue(event.key.slice(prefix.length)),
      () => {
        // a broken watch starts again from what is stored now
        if (!this.closed) void this.restart();
      },
    );
  }

  private async restart(): Promise<void> {
    this.watch?.stop();
    await this.start();
  }

  stop(): void {
    this.closed = true;
    this.watch?.stop();
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
  }

  /** Reconciles a definition after whatever is already queued; resolves when done. */
  enqueue(name: string): Promise<void> {
    this.queue = this.queue.then(() => this.reconcile(name)).catch(() => this.retry(name));
    return this.queue;
  }

  private retry(name: string): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.retries.delete(t);
      void this.enqueue(name);
    }, 500);
    this.retries.add(t);
  }

  private async reconcile(name: string): Promise<void> {
    if (this.closed) return;
    const kv = await this.host.storage.get(`${resourcePrefix(group, 'customresourcedefinitions')}${name}`);
    const crd = kv ? (this.store.listed(kv, apiVersion) as unknown as CustomResourceDefinition) : undefined;
    if (!crd) {
      await this.stopServing(name);
      return;
    }
    if (crd.metadata?.deletionTimestamp) {
      await this.cleanUp(crd);
      return;
    }
    const conflict = await this.namesConflict(crd);
    const established = await this.writeStatus(name, (obj, now) => {
      const current = obj as unknown as CustomResourceDefinition;
      if (conflict) {
        setDefinitionCondition(obj, { type: 'NamesAccepted', status: 'False', ...conflict }, now);
        const wasEstablished = current.status?.conditions?.some(
          (c) => c.type === 'Established' && c.status === 'True',
        );
        if (!wasEstablished)
          setDefinitionCondition(
            obj,
            {
              type: 'Established',
              status: 'False',
              reason: 'NotAccepted',
              message: 'not all names are accepted',
            },
            now,
          );
        return;
      }
      (obj as unknown as { status: { acceptedNames?: CustomResourceDefinitionNames } }).status.acceptedNames =
        {
          ...current.spec.names,
        };
      setDefinitionCondition(
        obj,
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
        now,
      );
      setDefinitionCondition(
        obj,
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
        },
        now,
      );
    });
    const isEstablished = established?.status?.conditions?.some(
      (c) => c.type === 'Established' && c.status === 'True',
    );
    if (!established || !isEstablished) return;
    const decl = customResourceKind(established);
    if (!decl) {
      await this.stopServing(name);
      return;
    }
    const before = this.served.get(name);
    if (before && (before.group !== decl.group || before.plural !== decl.plural))
      await this.host.uninstall(before.group, before.plural);
    this.served.set(name, { group: decl.group, plural: decl.plural });
    await this.host.install(decl);
  }

  private async stopServing(name: string): Promise<void> {
    const before = this.served.get(name);
    if (!before) return;
    this.served.delete(name);
    await this.host.uninstall(before.group, before.plural);
  }

  /**
   * Kubernetes' naming controller: a name another definition of the group accepted already (or a
   * resource the group serves) is refused with the condition's reason and message.
   */
  private async namesConflict(
    crd: CustomResourceDefinition,
  ): Promise<{ reason: string; message: string } | undefined> {
    const names = crd.spec.names;
    // the names the group's other definitions accepted (as stored, so that every server and every
    // restart decide alike) and those of the group's built-in kinds
    const prefix = resourcePrefix(group, 'customresourcedefinitions');
    const stored = (await this.host.storage.list(prefix, {})).items
      .map((kv) => this.store.listed(kv, apiVersion) as unknown as CustomResourceDefinition)
      .filter((o) => o.metadata?.name !== crd.metadata?.name && o.spec?.group === crd.spec.group)
      .flatMap((o) => (o.status?.acceptedNames?.plural ? [o.status.acceptedNames] : []));
    const others: Names[] = [
      ...this.host.mapper
        .all()
        .filter((m) => m.gvr.group === crd.spec.group && !m.declaration.customResource)
        .map((m) => m.declaration),
      ...stored.map((n) => ({ ...n, singular: n.singular ?? '' })),
    ];
    const taken = (pick: (d: Names) => readonly string[]): Set<string> => new Set(others.flatMap(pick));
    const plurals = taken((d) => [d.plural]);
    const singulars = taken((d) => [d.singular, d.plural]);
    const shortNames = taken((d) => [...(d.shortNames ?? []), d.plural, d.singular]);
    const kinds = taken((d) => [d.kind]);
    const listKinds = taken((d) => [d.listKind ?? `${d.kind}List`]);
    if (plurals.has(names.plural) || singulars.has(names.plural))
      return { reason: 'PluralConflict', message: `"${names.plural}" is already in use` };
    if (names.singular && (singulars.has(names.singular) || plurals.has(names.singular)))
      return { reason: 'SingularConflict', message: `"${names.singular}" is already in use` };
    const short = (names.shortNames ?? []).find((s) => shortNames.has(s));
    if (short) return { reason: 'ShortNamesConflict', message: `"${short}" is already in use` };
    if (kinds.has(names.kind))
      return { reason: 'KindConflict', message: `"${names.kind}" is already in use` };
    if (names.listKind && listKinds.has(names.listKind))
      return { reason: 'ListKindConflict', message: `"${names.listKind}" is already in use` };
    return undefined;
  }

  /** Updates a definition's status through its status subresource when `change` changes it. */
  private async writeStatus(
    name: string,
    change: (obj: ApiObject, now: Date) => void,
  ): Promise<CustomResourceDefinition | undefined> {
    let result: ApiObject | undefined;
    try {
      const { object } = await this.store.update(
        { namespace: '', apiVersion, dryRun: false },
        name,
        (current) => {
          if (!current) throw statusErrors.notFound({ group, resource: 'customresourcedefinitions' }, name);
          const next = clone(current);
          next.status ??= {};
          change(next, new Date());
          delete next.metadata.resourceVersion;
          return jsonEqual(next, current) ? current : next;
        },
        { fieldValidation: 'Ignore', warnings: [] },
        'status',
      );
      result = object;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return undefined;
      throw e;
    }
    return result as unknown as CustomResourceDefinition;
  }

  /**
   * Kubernetes' finalizer controller: deletes every object of the kind; once none is left, removes
   * the customresourcecleanup finalizer (the definition then goes) and stops serving the kind.
   */
  private async cleanUp(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata!.name!;
    if (!(crd.metadata?.finalizers ?? []).includes(customResourceCleanupFinalizer)) return;
    let served = this.served.get(name);
    // a definition found terminating (after a restart) whose names were accepted: its kind is served
    // again so that its objects are deleted rather than left in storage
    const accepted = crd.status?.acceptedNames?.plural ? customResourceKind(crd) : undefined;
    if (!served && accepted) {
      served = { group: accepted.group, plural: accepted.plural };
      this.served.set(name, served);
      await this.host.install(accepted);
    }
    const mapping =
      served &&
      this.host.mapper
        .all()
        .find((m) => m.gvr.group === served.group && m.gvr.resource === served.plural && m.preferred);
    if (mapping) {
      const store = this.host.storeFor(mapping);
      const scope = {
        namespace: '',
        apiVersion: `${mapping.gvk.group}/${mapping.gvk.version}`,
        dryRun: false,
      };
      const listed = await store.list(scope, {
        labelSelector: everythingLabels(),
        fieldSelector: everythingFields(),
        limit: 0,
        allowWatchBookmarks: false,
        watch: false,
      });
      if (listed.items.length) {
        await this.writeStatus(name, (obj, now) =>
          setDefinitionCondition(
            obj,
            {
              type: 'Terminating',
              status: 'True',
              reason: 'InstanceDeletionInProgress',
              message: 'CustomResource deletion is in progress',
            },
            now,
          ),
        );
        for (const item of listed.items) {
          try {
            await store.delete({ ...scope, namespace: item.metadata.namespace ?? '' }, item.metadata.name!, {
              propagationPolicy: 'Background',
            } as never);
          } catch (e) {
            if (!(e instanceof StatusError && e.code === 404)) throw e;
          }
        }
        const left = await store.list(scope, {
          labelSelector: everythingLabels(),
          fieldSelector: everythingFields(),
          limit: 0,
          allowWatchBookmarks: false,
          watch: false,
        });
        // objects kept by their own finalizers: look again later
        if (left.items.length) throw new Error('custom resources remain');
      }
    }
    await this.writeStatus(name, (obj, now) =>
      setDefinitionCondition(
        obj,
        {
          type: 'Terminating',
          status: 'False',
          reason: 'InstanceDeletionCompleted',
          message: 'removed all instances',
        },
        now,
      ),
    );
    await this.stopServing(name);
    try {
      await this.store.update(
        { namespace: '', apiVersion, dryRun: false },
        name,
        (current) => {
          if (!current) throw statusErrors.notFound({ group, resource: 'customresourcedefinitions' }, name);
          const next = clone(current);
          next.metadata.finalizers = (next.metadata.finalizers ?? []).filter(
            (f) => f !== customResourceCleanupFinalizer,
          );
          if (!next.metadata.finalizers.length) delete next.metadata.finalizers;
          delete next.metadata.resourceVersion;
          return next;
        },
        { fieldValidation: 'Ignore', warnings: [] },
      );
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
  }
}
