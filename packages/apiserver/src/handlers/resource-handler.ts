import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import {
  ScaleKind,
  getAtJSONPath,
  setAtJSONPath,
  toTable,
  type KindDeclaration,
  type ProtobufCodec,
  type RESTMapper,
  type RESTMapping,
  type Verb,
} from '@orch/api';
import { statusErrors, StatusError } from '../errors/status-error';
import { decodeBody } from '../negotiation/decode-body';
import { encodeBody } from '../negotiation/encode';
import { jsonListParts, protobufListParts } from './encode-list';
import { checkPartialKind, internalGoType, negotiate, tableIncludeObject } from '../negotiation/negotiate';
import {
  strictDecodingError,
  type GenericStore,
  type RequestScope,
  type WatchEventType,
  type WriteOptions,
} from '../registry/generic-store';
import { parseListOptions, queryBool } from '../registry/list-options';
import { clone, cloneKeepingManagedFields, type ApiObject } from '../registry/object';
import { answerJSON } from '../registry/answer-json';
import { checkFieldSelector, objectMatcher } from '../registry/selection';
import { isMutatingVerb, type RequestInfo } from '../request/request-info';
import { applyJSONPatch, applyStrategicPatch, decodePatchObject, mergePatch, patchTypeOf } from './patch';
import {
  parseDeleteOptions,
  parseDryRun,
  parseFieldManager,
  parseFieldValidation,
  parseForce,
  requireApplyManager,
  writeOptionsKind,
} from './write-options';
import { applyPatch, decodeApplyPatch } from '../fieldmanager/apply-patch';
import { fieldManagerFor } from '../fieldmanager/field-manager-for';
import { managerOrUserAgent } from '../fieldmanager/manager-name';
import {
  parentManagedFields,
  scaleAPIVersion,
  scaleManagedFields,
} from '../fieldmanager/scale-managed-fields';
import { scaleSelector } from './scale-selector';
import { randomWatchTimeout, WatchStream } from './watch-stream';
import type { UserInfo } from '../authn/authenticator';
import type { CustomRequest, VirtualHandler } from '../registry/custom-handlers';
import { writeAnswer } from './write-answer';

/** What the resource handler needs from the server. */
export interface ResourceContext {
  mapper: RESTMapper;
  codec: ProtobufCodec;
  /** See APIServerConfig.minRequestTimeoutSeconds. */
  minRequestTimeoutSeconds: number;
  /** The feature gates (see APIServerConfig.featureGates). */
  features: { enabled(name: string): boolean };
  storeFor(mapping: RESTMapping): GenericStore;
  /** The handler of a virtual kind (reviews), by `<group>/<plural>`. */
  virtualHandler(group: string, resource: string): VirtualHandler | undefined;
}

/** A request with its body already read (bounded). */
export interface ApiRequest {
  info: RequestInfo;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  user?: UserInfo;
  /** The HTTP request, for connect subresources that proxy it. */
  http?: IncomingMessage;
}

/** Answers one resource request, or throws a StatusError. */
export class ResourceHandler {
  constructor(private readonly ctx: ResourceContext) {}

  /** Whether the request goes to a connect subresource, whose handler reads the body itself. */
  streamsBody(info: RequestInfo): boolean {
    if (!info.subresource) return false;
    const mapping = this.ctx.mapper.forResource(info.apiGroup, info.apiVersion, info.resource);
    if (!mapping || mapping.declaration.virtual) return false;
    return this.ctx.storeFor(mapping).strategy.connectSubresources.includes(info.subresource);
  }

  async handle(req: ApiRequest, res: ServerResponse): Promise<void> {
    const { info } = req;
    const mapping = this.ctx.mapper.forResource(info.apiGroup, info.apiVersion, info.resource);
    if (!mapping || (mapping.declaration.verbs && mapping.declaration.verbs.length === 0))
      throw notFoundPath();
    const decl = mapping.declaration;
    if (!decl.namespaced && info.namespace && info.resource !== 'namespaces') throw notFoundPath();
    if (decl.namespaced && !info.namespace && info.name) throw notFoundPath();
    const apiVersion = mapping.gvk.group
      ? `${mapping.gvk.group}/${mapping.gvk.version}`
      : mapping.gvk.version;
    const pretty = req.query.get('pretty') === 'true';
    const warnings: string[] = [];
    if (isMutatingVerb(info.verb) && req.query.has('dryRun') && !this.ctx.features.enabled('DryRun'))
      throw statusErrors.badRequest('the dryRun beta feature is disabled');
    if (decl.virtual) {
      await this.virtual(req, res, decl, apiVersion, warnings, pretty);
      return;
    }
    const store = this.ctx.storeFor(mapping);
    const deprecation = decl.deprecatedVersions?.[info.apiVersion];
    if (deprecation) warnings.push(deprecation);
    if (info.deprecatedWatchPath)
      warnings.push('watch paths are deprecated: use the list endpoint with watch=true');

    if (info.subresource) {
      await this.subresource(req, res, mapping, store, apiVersion, warnings, pretty);
      return;
    }
    // a verb the kind does not serve has no route (namespaces have no deletecollection)
    if (decl.verbs && !decl.verbs.includes(info.verb as Verb)) throw collectionMethodNotAllowed();
    const scope = (dryRun = false): RequestScope => ({
      namespace: info.namespace,
      apiVersion,
      dryRun,
      user: req.user,
    });
    switch (info.verb) {
      case 'get': {
        if (req.query.get('export') !== null || req.query.get('exact') !== null) {
          warnings.push('the export and exact parameters are deprecated (removal planned in release 1.18)');
        }
        const obj = queryBool(req.query.get('export'))
          ? await store.export(scope(), info.name, queryBool(req.query.get('exact')))
          : await store.read(scope(), info.name);
        this.sendObject(req, res, 200, obj, decl, warnings, pretty, true);
        return;
      }
      case 'list': {
        const options = parseListOptions(req.query);
        if (!this.ctx.features.enabled('APIListChunking')) {
          options.limit = 0;
          options.continue = undefined;
        }
        const list = await store.list(scope(), options);
        if (!this.ctx.features.enabled('RemainingItemCount')) delete list.metadata.remainingItemCount;
        this.sendList(req, res, list, decl, warnings, pretty);
        return;
      }
      case 'watch':
        await this.watch(req, res, mapping, store, apiVersion, warnings);
        return;
      case 'create': {
        if (info.name)
          throw statusErrors.methodNotAllowed(
            `the server does not allow this method on the requested resource`,
          );
        const dryRun = parseDryRun(req.query, 'CreateOptions');
        const options = this.writeOptions(req, warnings, 'CreateOptions');
        options.decodedAs = { kind: decl.kind, version: info.apiVersion };
        const body = this.decodeObject(req, options);
        const created = await store.create(scope(dryRun), body, options);
        this.sendObject(req, res, 201, created, decl, warnings, pretty);
        return;
      }
      case 'update': {
        if (!info.name) throw collectionMethodNotAllowed();
        const dryRun = parseDryRun(req.query, 'UpdateOptions');
        const options = this.writeOptions(req, warnings, 'UpdateOptions');
        options.decodedAs = { kind: decl.kind, version: info.apiVersion };
        const body = this.decodeObject(req, options);
        options.preconditionUID = uidOf(body);
        const { object, created } = await store.update(
          scope(dryRun),
          info.name,
          () => body,
          options,
          '',
          'shared',
        );
        this.sendObject(req, res, created ? 201 : 200, object, decl, warnings, pretty);
        return;
      }
      case 'patch': {
        if (!info.name) throw collectionMethodNotAllowed();
        const { object, created } = await this.patch(req, store, scope, warnings, '');
        this.sendObject(req, res, created ? 201 : 200, object, decl, warnings, pretty);
        return;
      }
      case 'delete': {
        const body = req.body.length
          ? decodeBody(req.headers['content-type'], req.body, this.ctx.codec).value
          : undefined;
        const options = parseDeleteOptions(req.query, body);
        if (options.orphanDependents !== undefined)
          warnings.push('orphanDependents is deprecated: use propagationPolicy');
        const { result, deletedNow } = await store.delete(
          scope(Boolean(options.dryRun?.length)),
          info.name,
          options,
        );
        const code = !deletedNow && options.orphanDependents === false ? 202 : 200;
        this.sendObject(req, res, code, result, decl, warnings, pretty);
        return;
      }
      case 'deletecollection': {
        const body = req.body.length
          ? decodeBody(req.headers['content-type'], req.body, this.ctx.codec).value
          : undefined;
        const options = parseDeleteOptions(req.query, body);
        const list = await store.deleteCollection(
          scope(Boolean(options.dryRun?.length)),
          parseListOptions(req.query),
          options,
        );
        this.sendList(req, res, list, decl, warnings, pretty);
        return;
      }
      default:
        throw statusErrors.methodNotAllowed(
          'the server does not allow this method on the requested resource',
        );
    }
  }

  /**
   * Options of a write; with `optionsKind` (CreateOptions, UpdateOptions, PatchOptions) the write records
   * an Update operation for its field manager (the fieldManager parameter or the User-Agent's prefix).
   */
  private writeOptions(
    req: ApiRequest,
    warnings: string[],
    optionsKind?: string,
    managedAs?: { apiVersion: string; subresource: string },
  ): WriteOptions {
    const options: WriteOptions = {
      fieldValidation: parseFieldValidation(req.query, writeOptionsKind(req.info.verb)),
      warnings,
    };
    if (optionsKind !== undefined) {
      const manager = managerOrUserAgent(
        parseFieldManager(req.query, optionsKind),
        req.headers['user-agent'],
      );
      options.managedBy = { manager, ...managedAs };
    }
    return options;
  }

  /** Whether apply patches are served (the ServerSideApply feature gate). */
  private applies(): boolean {
    return this.ctx.features.enabled('ServerSideApply');
  }

  /** Decodes a create/update body; duplicate fields follow fieldValidation like unknown ones. */
  private decodeObject(req: ApiRequest, options: WriteOptions): ApiObject {
    const { value, duplicates } = decodeBody(
      req.headers['content-type'],
      req.body,
      this.ctx.codec,
      options.decodedAs?.kind,
    );
    if (duplicates.length) {
      if (options.fieldValidation === 'Strict') throw strictDecodingError(duplicates, options.decodedAs);
      if (options.fieldValidation === 'Warn') options.warnings.push(...duplicates);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw statusErrors.badRequest('the body of the request must be a JSON object');
    }
    return value as ApiObject;
  }

  private async patch(
    req: ApiRequest,
    store: GenericStore,
    scope: (dryRun?: boolean) => RequestScope,
    warnings: string[],
    subresource: string,
  ): Promise<{ object: ApiObject; created: boolean }> {
    const type = patchTypeOf(req.headers['content-type'], this.applies());
    const dryRun = parseDryRun(req.query, 'PatchOptions');
    if (req.query.get('force') !== null && type !== 'apply') {
      throw statusErrors.invalid(
        'PatchOptions',
        'meta.k8s.io',
        '',
        'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
        [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: may not be specified for non-apply patch',
            field: 'force',
          },
        ],
      );
    }
    if (type === 'apply') return this.apply(req, store, scope(dryRun), warnings, subresource);
    const options = this.writeOptions(req, warnings, 'PatchOptions');
    const patchObject = type === 'json' ? undefined : decodePatchObject(req.body, type);
    const schema = store.declaration.schema;
    return store.update(
      scope(dryRun),
      req.info.name,
      (current) => {
        if (!current)
          throw statusErrors.notFound(
            { group: store.declaration.group, resource: store.declaration.plural },
            req.info.name,
          );
        // `current` is shared: strategic and JSON patches build a new object, a merge patch's result
        // (which keeps unpatched parts of both inputs) is copied, all but its managedFields entries
        const patched = (
          type === 'strategic'
            ? applyStrategicPatch(current, patchObject!, schema)
            : patchObject
              ? cloneKeepingManagedFields(mergePatch(current, patchObject) as ApiObject)
              : applyJSONPatch(current, req.body)
        ) as ApiObject;
        // without an explicit resourceVersion in the patch the update is retried on conflicts
        const explicit = patchObject
          ? (patchObject.metadata as { resourceVersion?: string } | undefined)?.resourceVersion
          : undefined;
        if (patched.metadata && !explicit && type !== 'json') delete patched.metadata.resourceVersion;
        if (
          type === 'json' &&
          patched.metadata &&
          patched.metadata.resourceVersion === current.metadata.resourceVersion
        ) {
          delete patched.metadata.resourceVersion;
        }
        return patched;
      },
      options,
      subresource,
      'shared',
    );
  }

  /** Server-side apply: creates the object or merges the applied configuration into it. */
  private async apply(
    req: ApiRequest,
    store: GenericStore,
    scope: RequestScope,
    warnings: string[],
    subresource: string,
  ): Promise<{ object: ApiObject; created: boolean }> {
    const manager = requireApplyManager(parseFieldManager(req.query, 'PatchOptions'));
    const force = parseForce(req.query);
    const patch = decodeApplyPatch(req.body);
    const explicitVersion = (patch.metadata as { resourceVersion?: unknown } | undefined)?.resourceVersion;
    const options: WriteOptions = { ...this.writeOptions(req, warnings), forceAllowCreate: !subresource };
    const fm = fieldManagerFor(store.declaration);
    return store.update(
      scope,
      req.info.name,
      (current) => {
        if (!current && subresource)
          throw statusErrors.notFound(
            { group: store.declaration.group, resource: store.declaration.plural },
            req.info.name,
          );
        // applying changes neither the stored object nor the configuration, but the result keeps
        // parts of both: it is copied (all but its managedFields entries, which no write changes in
        // place), so a retry can apply the same configuration again
        const applied = cloneKeepingManagedFields(
          applyPatch(fm, current, patch, {
            manager,
            apiVersion: scope.apiVersion,
            force,
            subresource,
          }),
        );
        // without a resourceVersion in the configuration the apply is retried on conflicts
        if (!explicitVersion) delete applied.metadata.resourceVersion;
        return applied;
      },
      options,
      subresource,
      'shared',
    );
  }

  private async subresource(
    req: ApiRequest,
    res: ServerResponse,
    mapping: RESTMapping,
    store: GenericStore,
    apiVersion: string,
    warnings: string[],
    pretty: boolean,
  ): Promise<void> {
    const { info } = req;
    const decl = mapping.declaration;
    const scope = (dryRun = false): RequestScope => ({
      namespace: info.namespace,
      apiVersion,
      dryRun,
      user: req.user,
    });
    const custom = store.strategy.subresources[info.subresource];
    if (custom) {
      const { code, object, stream, upgraded } = await custom(
        store,
        this.customRequest(req, scope, warnings, decl.namespaced),
      );
      if (upgraded) return;
      if (stream) {
        sendStream(res, code, stream.contentType, stream.body, stream.headers);
        return;
      }
      this.sendObject(req, res, code, object, decl, warnings, pretty);
      return;
    }
    if (store.strategy.objectSubresources.includes(info.subresource)) {
      if (info.verb === 'get') {
        // a table has the kind's columns, as for the object itself (kubectl get --subresource=status)
        const object = await store.read(scope(), info.name);
        this.sendObject(req, res, 200, object, decl, warnings, pretty, true);
        return;
      }
      if (info.verb === 'update') {
        const dryRun = parseDryRun(req.query, 'UpdateOptions');
        const options = this.writeOptions(req, warnings, 'UpdateOptions');
        options.decodedAs = { kind: decl.kind, version: info.apiVersion };
        const body = this.decodeObject(req, options);
        options.preconditionUID = uidOf(body);
        const { object } = await store.update(
          scope(dryRun),
          info.name,
          () => body,
          options,
          info.subresource,
          'shared',
        );
        this.sendObject(req, res, 200, object, decl, warnings, pretty);
        return;
      }
      if (info.verb === 'patch') {
        const { object } = await this.patch(req, store, scope, warnings, info.subresource);
        this.sendObject(req, res, 200, object, decl, warnings, pretty);
        return;
      }
      throw statusErrors.methodNotAllowed('the server does not allow this method on the requested resource');
    }
    if (info.subresource === 'scale' && decl.subresources?.scale) {
      await this.scale(req, res, store, scope, warnings, pretty);
      return;
    }
    throw notFoundPath();
  }

  /** The scale subresource: an autoscaling/v1 Scale view of spec.replicas and status.replicas. */
  private async scale(
    req: ApiRequest,
    res: ServerResponse,
    store: GenericStore,
    scope: (dryRun?: boolean) => RequestScope,
    warnings: string[],
    pretty: boolean,
  ): Promise<void> {
    const { info } = req;
    // where the object keeps its replicas and selector (the kind's scale declaration)
    const paths = store.declaration.subresources?.scale ?? {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
    };
    const toScale = (obj: ApiObject): ApiObject => {
      const specReplicas = getAtJSONPath(obj, paths.specReplicasPath);
      const statusReplicas = getAtJSONPath(obj, paths.statusReplicasPath);
      // a serialized selector at labelSelectorPath (custom resources), else spec.selector's string form
      const declaredSelector = paths.labelSelectorPath
        ? getAtJSONPath(obj, paths.labelSelectorPath)
        : undefined;
      const selector =
        typeof declaredSelector === 'string'
          ? declaredSelector
          : scaleSelector((obj.spec as { selector?: unknown } | undefined)?.selector);
      return {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: {
          name: obj.metadata.name,
          namespace: obj.metadata.namespace,
          // the scale subresource's own path, when the object carries its self link
          selfLink: obj.metadata.selfLink && `${obj.metadata.selfLink}/scale`,
          uid: obj.metadata.uid,
          resourceVersion: obj.metadata.resourceVersion,
          creationTimestamp: obj.metadata.creationTimestamp,
        },
        spec: { replicas: typeof specReplicas === 'number' ? specReplicas : 0 },
        status: {
          replicas: typeof statusReplicas === 'number' ? statusReplicas : 0,
          selector,
        },
      };
    };
    if (info.verb === 'get') {
      // a table has the Scale's own columns (kubectl get --subresource=scale)
      const scale = toScale(await store.read(scope(), info.name));
      this.sendObject(req, res, 200, scale, ScaleKind, warnings, pretty, true);
      return;
    }
    if (info.verb !== 'update' && info.verb !== 'patch') {
      throw statusErrors.methodNotAllowed('the server does not allow this method on the requested resource');
    }
    const optionsKind = info.verb === 'update' ? 'UpdateOptions' : 'PatchOptions';
    const dryRun = parseDryRun(req.query, optionsKind);
    const type = info.verb === 'patch' ? patchTypeOf(req.headers['content-type'], this.applies()) : undefined;
    // the scale writer owns the parent's spec.replicas, recorded under the parent's version; an apply
    // records its ownership through the Scale's managedFields instead (see scale-managed-fields)
    const options =
      type === 'apply'
        ? this.writeOptions(req, warnings)
        : this.writeOptions(req, warnings, optionsKind, {
            apiVersion: scope().apiVersion,
            subresource: 'scale',
          });
    let newScale: ApiObject | undefined;
    if (info.verb === 'update') {
      newScale = this.decodeObject(req, options);
      checkScaleKind(newScale);
      checkScaleName(newScale, info.name, info.namespace);
      options.preconditionUID = uidOf(newScale);
    }
    const scaleDecl = this.ctx.mapper.forKind('autoscaling', 'v1', 'Scale')?.declaration;
    const applied =
      type === 'apply' && scaleDecl
        ? {
            manager: requireApplyManager(parseFieldManager(req.query, 'PatchOptions')),
            force: parseForce(req.query),
            patch: decodeApplyPatch(req.body),
            fm: fieldManagerFor(scaleDecl),
          }
        : undefined;
    const { object } = await store.update(
      scope(dryRun),
      info.name,
      (current) => {
        if (!current)
          throw statusErrors.notFound(
            { group: store.declaration.group, resource: store.declaration.plural },
            info.name,
          );
        const currentScale = toScale(current);
        const scale = (newScale ??
          (applied
            ? applyPatch(
                applied.fm,
                {
                  ...currentScale,
                  metadata: {
                    ...currentScale.metadata,
                    managedFields: scaleManagedFields(current.metadata.managedFields),
                  },
                },
                clone(applied.patch),
                {
                  manager: applied.manager,
                  apiVersion: scaleAPIVersion,
                  force: applied.force,
                  subresource: 'scale',
                },
              )
            : type === 'json'
              ? applyJSONPatch(currentScale, req.body)
              : type === 'strategic' && scaleDecl
                ? applyStrategicPatch(currentScale, decodePatchObject(req.body, type), scaleDecl.schema)
                : mergePatch(currentScale, decodePatchObject(req.body, 'merge')))) as ApiObject;
        // a patched Scale keeps its name, as Kubernetes' patch handler checks of every patched object
        if (!newScale) checkScaleName(scale, info.name, info.namespace);
        const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
        if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
          throw statusErrors.invalid(
            'Scale',
            'autoscaling',
            info.name,
            `Scale.autoscaling "${info.name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
            [
              {
                reason: 'FieldValueInvalid',
                message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
                field: 'spec.replicas',
              },
            ],
          );
        }
        const updated = clone(current);
        setAtJSONPath(updated, paths.specReplicasPath, replicas);
        if (applied) {
          const entries = parentManagedFields(
            current.metadata.managedFields,
            scale.metadata.managedFields,
            scope().apiVersion,
          );
          if (entries.length) updated.metadata.managedFields = entries;
          else delete updated.metadata.managedFields;
        }
        const rv = scale.metadata?.resourceVersion;
        if (rv && rv !== currentScale.metadata.resourceVersion) updated.metadata.resourceVersion = rv;
        else delete updated.metadata.resourceVersion;
        return updated;
      },
      options,
    );
    this.sendObject(req, res, 200, toScale(object), ScaleKind, warnings, pretty);
  }

  /**
   * The request as a kind's own subresource or a virtual kind gets it; a body of a namespaced kind
   * naming another namespace than the request's is refused, as Kubernetes' create and update
   * handlers refuse it before the kind sees it.
   */
  private customRequest(
    req: ApiRequest,
    scope: (dryRun?: boolean) => RequestScope,
    warnings: string[],
    namespaced = false,
  ): CustomRequest {
    const optionsKind =
      req.info.verb === 'create'
        ? 'CreateOptions'
        : req.info.verb === 'delete'
          ? 'DeleteOptions'
          : 'UpdateOptions';
    const dryRun = parseDryRun(req.query, optionsKind);
    const options = this.writeOptions(req, warnings);
    // a connect subresource's body is the handler's to read from the HTTP request
    const body = req.body.length && !this.streamsBody(req.info) ? this.decodeObject(req, options) : undefined;
    if (body && namespaced) checkBodyNamespace(body, scope().namespace);
    return {
      verb: req.info.verb,
      scope: scope(dryRun),
      name: req.info.name,
      subresource: req.info.subresource,
      body,
      query: req.query,
      user: req.user,
      options,
      ...(req.http ? { http: req.http } : {}),
    };
  }

  private async virtual(
    req: ApiRequest,
    res: ServerResponse,
    decl: KindDeclaration<any>,
    apiVersion: string,
    warnings: string[],
    pretty: boolean,
  ): Promise<void> {
    const handler = this.ctx.virtualHandler(decl.group, decl.plural);
    if (!handler) throw notFoundPath();
    const { verb, name } = req.info;
    if (!(decl.verbs ?? ['create']).includes(verb as Verb) || (verb === 'create' && name)) {
      throw statusErrors.methodNotAllowed('the server does not allow this method on the requested resource');
    }
    const scope = (dryRun = false): RequestScope => ({
      namespace: req.info.namespace,
      apiVersion,
      dryRun,
      user: req.user,
    });
    if (verb === 'get' || verb === 'list') {
      await this.computedRead(req, res, decl, handler, scope(), warnings, pretty);
      return;
    }
    const { code, object } = await handler(decl, this.customRequest(req, scope, warnings, decl.namespaced));
    this.sendObject(req, res, code, object, decl, warnings, pretty);
  }

  /**
   * get and list of a virtual kind whose objects are computed when read (metrics.k8s.io): the
   * handler answers the object, or the list's items (`{ items }`), which are filtered here by the
   * label and field selectors as stored kinds' are.
   */
  private async computedRead(
    req: ApiRequest,
    res: ServerResponse,
    decl: KindDeclaration<any>,
    handler: VirtualHandler,
    scope: RequestScope,
    warnings: string[],
    pretty: boolean,
  ): Promise<void> {
    const options = req.info.verb === 'list' ? parseListOptions(req.query) : undefined;
    if (options) checkFieldSelector(decl, options.fieldSelector);
    const request: CustomRequest = {
      verb: req.info.verb,
      scope,
      name: req.info.name,
      subresource: '',
      query: req.query,
      user: req.user,
      options: { fieldValidation: 'Ignore', warnings },
    };
    const { object } = await handler(decl, request);
    if (!options) {
      this.sendObject(req, res, 200, object, decl, warnings, pretty, true);
      return;
    }
    const matches = objectMatcher(decl, options.labelSelector, options.fieldSelector);
    const items = ((object as { items?: ApiObject[] }).items ?? []).filter(matches);
    const list = {
      apiVersion: scope.apiVersion,
      kind: decl.listKind ?? `${decl.kind}List`,
      metadata: {},
      items,
    };
    this.sendList(req, res, list, decl, warnings, pretty);
  }

  private async watch(
    req: ApiRequest,
    res: ServerResponse,
    mapping: RESTMapping,
    store: GenericStore,
    apiVersion: string,
    warnings: string[],
  ): Promise<void> {
    const decl = mapping.declaration;
    const negotiated = negotiate(req.headers.accept, {
      protobuf: this.ctx.codec.supports(apiVersion, decl.kind),
      table: true,
      stream: true,
    });
    const options = parseListOptions(req.query);
    // every refusal is answered before the stream starts (its 200 cannot be taken back)
    checkFieldSelector(decl, options.fieldSelector);
    const includeObject = negotiated.table ? tableIncludeObject(req.query) : 'Metadata';
    const stream = new WatchStream(
      res,
      negotiated,
      this.ctx.codec,
      warnings,
      options.timeoutSeconds ?? randomWatchTimeout(this.ctx.minRequestTimeoutSeconds),
    );
    let first = true;
    const handle = await store.watch(
      { namespace: req.info.namespace, apiVersion, dryRun: false },
      options,
      {
        event: (type: WatchEventType, object: unknown) => {
          let out = object;
          if (negotiated.table && type !== 'BOOKMARK') {
            const table = toTable(decl, [object as ApiObject], {
              includeObject,
              apiVersion: `${negotiated.table.group}/${negotiated.table.version}`,
            });
            if (!first) table.columnDefinitions = [];
            first = false;
            out = table;
          } else if (negotiated.partial) {
            // a metadata-only watch (client-go's metadata informers) gets PartialObjectMetadata events
            out = {
              kind: 'PartialObjectMetadata',
              apiVersion: `${negotiated.partial.group}/${negotiated.partial.version}`,
              metadata: (object as ApiObject).metadata,
            };
          }
          stream.send(type, out);
        },
        error: (e: StatusError) => {
          stream.send('ERROR', e.status);
          stream.end();
        },
      },
      req.info.name || undefined,
    );
    stream.onClose(() => handle.stop());
  }

  private sendObject(
    req: ApiRequest,
    res: ServerResponse,
    code: number,
    obj: unknown,
    decl: KindDeclaration<any>,
    warnings: string[],
    pretty: boolean,
    tableAllowed = false,
  ): void {
    const o = obj as ApiObject;
    const negotiated = negotiate(req.headers.accept, {
      protobuf: this.ctx.codec.supports(o.apiVersion ?? '', o.kind ?? ''),
      table: tableAllowed,
    });
    let out: unknown = obj;
    if (negotiated.table) {
      out = toTable(decl, [o], {
        includeObject: tableIncludeObject(req.query),
        apiVersion: `${negotiated.table.group}/${negotiated.table.version}`,
      });
    } else if (negotiated.partial && o.kind !== 'Status') {
      // a Status answer (of a delete) is sent as it is, as Kubernetes transforms no Status
      checkPartialKind(negotiated, false, internalGoType(decl, false));
      out = {
        kind: 'PartialObjectMetadata',
        apiVersion: `${negotiated.partial.group}/${negotiated.partial.version}`,
        metadata: o.metadata,
      };
    }
    const known = out === obj && negotiated.format === 'json' && !pretty ? answerJSON(o) : undefined;
    this.write(
      res,
      code,
      known ?? encodeBody(out, negotiated, this.ctx.codec, pretty),
      negotiated.contentType,
      warnings,
    );
  }

  private sendList(
    req: ApiRequest,
    res: ServerResponse,
    list: { apiVersion: string; kind: string; metadata: Record<string, unknown>; items: ApiObject[] },
    decl: KindDeclaration<any>,
    warnings: string[],
    pretty: boolean,
  ): void {
    const negotiated = negotiate(req.headers.accept, {
      protobuf: this.ctx.codec.supports(list.apiVersion, list.kind),
      table: true,
    });
    let out: unknown;
    if (negotiated.table) {
      out = toTable(decl, list.items, {
        includeObject: tableIncludeObject(req.query),
        apiVersion: `${negotiated.table.group}/${negotiated.table.version}`,
        listMeta: list.metadata,
      });
    } else if (negotiated.partial) {
      checkPartialKind(negotiated, true, internalGoType(decl, true));
      out = {
        kind: 'PartialObjectMetadataList',
        apiVersion: `${negotiated.partial.group}/${negotiated.partial.version}`,
        metadata: list.metadata,
        items: list.items.map((i) => ({
          kind: 'PartialObjectMetadata',
          apiVersion: `${negotiated.partial!.group}/${negotiated.partial!.version}`,
          metadata: i.metadata,
        })),
      };
    } else if (negotiated.format === 'json' && !pretty) {
      // spliced from each item's cached encoding (items carry no apiVersion and kind)
      this.writeParts(res, jsonListParts(list), negotiated.contentType, warnings);
      return;
    } else if (negotiated.format === 'protobuf') {
      this.writeParts(res, protobufListParts(list, this.ctx.codec), negotiated.contentType, warnings);
      return;
    } else {
      // list items carry no apiVersion and kind, as in Kubernetes' typed lists
      out = { ...list, items: list.items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest) };
    }
    this.write(
      res,
      200,
      encodeBody(out, negotiated, this.ctx.codec, pretty),
      negotiated.contentType,
      warnings,
    );
  }

  /** A 200 answer given as parts in order (a list spliced from its items' encodings). */
  private writeParts(res: ServerResponse, parts: Buffer[], contentType: string, warnings: string[]): void {
    writeAnswer(res, { code: 200, contentType, warnings }, parts, this.compression());
  }

  private write(
    res: ServerResponse,
    code: number,
    body: Buffer,
    contentType: string,
    warnings: string[],
  ): void {
    writeAnswer(res, { code, contentType, warnings }, [body], this.compression());
  }

  /** Whether large answers may be gzipped: the APIResponseCompression gate. */
  private compression(): boolean {
    return this.ctx.features.enabled('APIResponseCompression');
  }
}

/**
 * A Scale body is decoded as an autoscaling/v1 Scale: another kind cannot be converted to one, another
 * version of it is not the one expected (Kubernetes' 400s from the update handler's decoder).
 */
function checkScaleKind(scale: ApiObject): void {
  const { kind, apiVersion } = scale as { kind?: unknown; apiVersion?: unknown };
  if (kind !== undefined && kind !== 'Scale') {
    const version = String(apiVersion ?? 'v1')
      .split('/')
      .pop();
    throw statusErrors.badRequest(
      `${String(kind)} in version "${version}" cannot be handled as a Scale: converting (${version}.${String(kind)}) to (autoscaling.Scale): unknown conversion`,
    );
  }
  if (apiVersion !== undefined && apiVersion !== scaleAPIVersion) {
    throw statusErrors.badRequest(
      `the API version in the data (${String(apiVersion)}) does not match the expected API version (${scaleAPIVersion})`,
    );
  }
}

/** Kubernetes' checkName on a Scale: the URL's name (a missing one differs), the request's namespace. */
function checkScaleName(scale: ApiObject, name: string, namespace: string): void {
  const meta = (scale.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  const own = typeof meta.name === 'string' ? meta.name : '';
  if (own !== name) {
    throw statusErrors.badRequest(
      `the name of the object (${own}) does not match the name on the URL (${name})`,
    );
  }
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  if (namespace && ns && ns !== namespace) {
    throw statusErrors.badRequest(
      `the namespace of the object (${ns}) does not match the namespace on the request (${namespace})`,
    );
  }
}

/** PUT and PATCH are served on objects only: on a collection Kubernetes has no such route (405). */
function collectionMethodNotAllowed(): StatusError {
  return statusErrors.methodNotAllowed('the server does not allow this method on the requested resource');
}

/** A body's metadata.uid, the precondition of a PUT (Kubernetes' DefaultUpdatedObjectInfo). */
function uidOf(body: ApiObject): string | undefined {
  const uid = (body.metadata as { uid?: unknown } | undefined)?.uid;
  return typeof uid === 'string' && uid ? uid : undefined;
}

/** Kubernetes' EnsureObjectNamespaceMatchesRequestNamespace for a body a kind's own handler gets. */
function checkBodyNamespace(body: ApiObject, namespace: string): void {
  const meta = body.metadata as { namespace?: unknown } | undefined;
  const own = typeof meta?.namespace === 'string' ? meta.namespace : '';
  if (own && namespace && own !== namespace) {
    throw statusErrors.badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
}

export function notFoundPath(): StatusError {
  const e = statusErrors.notFound({ group: '', resource: '' }, '');
  e.status.message = 'the server could not find the requested resource';
  e.status.details = {};
  return e;
}

/** Streams `body` as the answer, each chunk sent as it comes; ends when it ends or the client goes. */
function sendStream(
  res: ServerResponse,
  code: number,
  contentType: string,
  body: Readable,
  headers?: Record<string, string | string[]>,
): void {
  res.writeHead(code, headers ?? { 'Content-Type': contentType, 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  res.on('close', () => body.destroy());
  body.on('error', () => res.destroy());
  body.pipe(res);
}
