import { createHash } from 'node:crypto';
import https from 'node:https';
import { networkInterfaces } from 'node:os';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  allKinds,
  apiVersionOf,
  buildOpenAPIv2,
  buildOpenAPIv3,
  openAPIv3PathOf,
  ProtobufCodec,
  systemPriorityClassList,
  RESTMapper,
  type KindDeclaration,
  type OpenAPIInfo,
  type OpenAPIOptions,
  type RESTMapping,
} from '@orch/api';
import {
  aggregatedDiscovery,
  aggregatedDiscoveryContentType,
  aggregatedDiscoveryVersion,
  Discovery,
} from '../discovery/discovery';
import { StatusError, toStatusError, statusErrors } from '../errors/status-error';
import { notFoundPath, ResourceHandler } from '../handlers/resource-handler';
import { encodeStatus } from '../negotiation/encode';
import { encodeOpenAPIv2, openAPIv2Format, openAPIv2ProtobufMediaType } from '../openapi/openapiv2-protobuf';
import { GenericStore, type GenericStoreOptions } from '../registry/generic-store';
import { strategyFor, type StrategyContext } from '../registry/strategies';
import type { KubeletClientConfig } from '../registry/strategies/pod-log';
import { ServiceIPAllocator } from '../registry/strategies/service-ip-allocator';
import { ServiceStorage } from '../registry/strategies/service-storage';
import { isMutatingVerb, parseRequestInfo, type RequestInfo } from '../request/request-info';
import type { Storage } from '../storage/storage';
import {
  DEFAULT_FEATURE_GATES,
  FeatureGate,
  serveUpgrades,
  sniCallback,
  tlsServerTuning,
  upgradeOf,
  type NamedCertKey,
  type VersionInfo,
} from '@orch/component-base';
import { defaultTimeToLive } from './time-to-live';
import { InflightLimiter } from './inflight-limiter';
import { readBody } from './read-body';
import { APIServerMetrics } from './apiserver-metrics';
import { InstrumentedStorage } from './instrumented-storage';
import type { VirtualHandler } from '../registry/custom-handlers';
import { installResourceMetrics } from '../resourcemetrics/install-resource-metrics';
import { AdmissionChain } from '../admission/admission';
import type { ObjectLookup } from '../admission/object-lookup';
import type { ObjectWriter } from '../admission/object-writer';
import { admissionPlugins, defaultAdmissionPlugins } from '../admission/plugins';
import { collectionPrefix, objectKey, resourcePrefix } from '../registry/keys';
import { Cacher } from '../storage/cacher/cacher';
import { anonymousUser, type Authenticator, type UserInfo } from '../authn/authenticator';
import {
  AlwaysAllowAuthorizer,
  forbiddenMessage,
  type AuthorizationAttributes,
  type Authorizer,
} from '../authz/authorizer';
import { asksToImpersonate, impersonate } from '../authn/impersonation';
import { CustomResourceDefinitions } from './custom-resource-definitions';

/** The authorizer of a server configured without one. */
const alwaysAllow = new AlwaysAllowAuthorizer();

export interface APIServerConfig {
  storage: Storage;
  declarations?: readonly KindDeclaration<any>[];
  bindAddress: string;
  securePort: number;
  /**
   * The serving certificate and key; `--tls-min-version` and `--tls-cipher-suites` (Go names) when
   * given, else the runtime's lowest version and the default suites; `--tls-sni-cert-key` pairs.
   */
  tls: {
    cert: string | Buffer;
    key: string | Buffer;
    minVersion?: string;
    cipherSuites?: readonly string[];
    sniCertKeys?: readonly NamedCertKey[];
  };
  /** CA bundle that client certificates are verified against (`--client-ca-file`); asks clients for certificates when set. */
  clientCA?: string | Buffer;
  /** Admission plugins by name (`--enable-admission-plugins`); Kubernetes' default set when omitted. */
  admissionPlugins?: readonly string[];
  /** Who a request comes from; requests no authenticator recognizes are anonymous or refused. */
  authenticator?: Authenticator;
  /** `--anonymous-auth`. */
  anonymousAuth?: boolean;
  authorizer?: Authorizer;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  requestTimeoutMs: number;
  version: VersionInfo;
  /** Serve watches and resourceVersion=0 lists from a watch cache per resource (default true). */
  watchCache?: boolean;
  /**
   * `--min-request-timeout`: a watch without timeoutSeconds ends after a random time between this
   * many seconds and twice as many (default 1800), so that reconnecting clients spread out.
   */
  minRequestTimeoutSeconds?: number;
  /** The address clients reach this server at (for discovery's serverAddressByClientCIDRs). */
  advertiseAddress?: string;
  /** `--service-cluster-ip-range` (Kubernetes' default 10.0.0.0/24 when omitted). */
  serviceClusterIPRange?: string;
  /** `--service-node-port-range` (30000-32767 when omitted). */
  serviceNodePortRange?: string;
  /**
   * How long objects of kinds with a time to live last after their last write, in seconds, by the
   * setting their declaration names (`event-ttl`: --event-ttl, one hour when omitted).
   */
  timeToLive?: { 'event-ttl'?: number };
  /**
   * The feature gates (--feature-gates); their defaults when omitted. The server asks
   * APIResponseCompression (large answers gzipped for clients that accept it), APIListChunking
   * (limit and continue honoured), RemainingItemCount, DryRun and RemoveSelfLink.
   */
  featureGates?: Pick<FeatureGate, 'enabled'>;
  /** How pods/log reaches the node agents (the `--kubelet-*` flags). */
  kubeletClient?: KubeletClientConfig;
  /**
   * How often a deleted system namespace is created again while the server runs (Kubernetes'
   * system-namespaces controller: every minute, the default).
   */
  systemNamespacesIntervalMs?: number;
}

/** Resolves once `work` is done or found the object already there (409). */
async function ignoreExisting(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (e) {
    if (!(e instanceof StatusError && e.code === 409)) throw e;
  }
}

/**
 * The address the `kubernetes` Endpoints name: the advertised one, or — when that is unspecified or
 * loopback, which Endpoints may not carry — the first non-internal IPv4 address of this host.
 */
function endpointIP(advertised: string): string | undefined {
  if (advertised && !/^(0\.0\.0\.0|::|::1|127\.\d+\.\d+\.\d+|localhost)$/.test(advertised)) return advertised;
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && !a.internal && a.family === 'IPv4')?.address;
}

/** Namespaces every cluster has. */
export const bootstrapNamespaces = ['default', 'orch-system', 'orch-public', 'orch-node-lease'];

/** orch-apiserver: the HTTPS resource API over one storage backend. */
export class APIServer {
  readonly mapper: RESTMapper;
  readonly codec: ProtobufCodec;
  private readonly stores = new Map<string, GenericStore>();
  /** The watch cache of each resource, by `<group>/<resource>`. */
  private readonly cachers = new Map<string, Cacher>();
  private readonly resources: ResourceHandler;
  /** What the feature gates set for every store: selfLinks (RemoveSelfLink), managedFields (ServerSideApply). */
  private readonly storeOptions: GenericStoreOptions;
  private readonly discovery: Discovery;
  private readonly inflight: InflightLimiter;
  private server?: https.Server;
  private openapiV2?: Buffer;
  /** {@link openapiV2} in the protobuf form. */
  private openapiV2Proto?: Buffer;
  /** The ETag of the JSON /openapi/v2 document: its SHA-512, which both of its forms carry. */
  private openapiV2ETag?: string;
  private readonly openapiV3 = new Map<string, { body: Buffer; hash: string }>();
  private ready = false;
  /** The `kubernetes` Service's cluster IP, once bootstrap() has installed the services registry. */
  private kubernetesServiceIP?: string;
  /** Re-creates deleted system namespaces while the server runs (see ensureSystemNamespaces). */
  private systemNamespacesTimer?: NodeJS.Timeout;
  readonly metrics = new APIServerMetrics();
  /** The storage every store uses (the configured backend, instrumented). */
  readonly storage: Storage;
  /** The admission plugins every store runs. */
  readonly admission: AdmissionChain;
  /** Handlers of virtual kinds (reviews) by `<group>/<plural>`. */
  readonly virtualHandlers = new Map<string, VirtualHandler>();
  /** The preferred mapping of each `<group>/<resource>` admission asked for (null: none). */
  private readonly preferredMappings = new Map<string, RESTMapping | null>();
  /** Serves the kinds CustomResourceDefinitions declare. */
  private readonly customResources: CustomResourceDefinitions;
  /** What kind strategies get from the server's configuration. */
  private readonly strategyContext: StrategyContext = { kubeletClient: () => this.config.kubeletClient };

  constructor(readonly config: APIServerConfig) {
    const declarations = config.declarations ?? allKinds;
    // Admission reads what the watch caches hold, as Kubernetes' plugins read informers: an object
    // the cache does not hold (yet) is looked up in storage; lists come from the cache.
    const preferred = this.preferredMappings;
    const mappingOf = (group: string, resource: string): RESTMapping | undefined => {
      const k = `${group}/${resource}`;
      let m = preferred.get(k);
      if (m === undefined) {
        m =
          this.mapper
            .all()
            .find((x) => x.gvr.group === group && x.gvr.resource === resource && x.preferred) ?? null;
        preferred.set(k, m);
      }
      return m ?? undefined;
    };
    const lookup: ObjectLookup = {
      get: async (group, resource, namespace, name) => {
        const m = mappingOf(group, resource);
        if (!m) return undefined;
        const store = this.storeFor(m);
        const key = objectKey(group, resource, m.namespaced ? namespace : '', name);
        const kv =
          (await this.cachers.get(`${group}/${resource}`)?.cached(key)) ?? (await this.storage.get(key));
        return kv ? store.listed(kv, apiVersionOf(group, m.gvk.version)) : undefined;
      },
      list: async (group, resource, namespace) => {
        const m = mappingOf(group, resource);
        if (!m) return [];
        const store = this.storeFor(m);
        const page = await (this.cachers.get(`${group}/${resource}`) ?? this.storage).list(
          collectionPrefix(group, resource, m.namespaced ? namespace : ''),
          { fromCache: true },
        );
        return page.items.map((kv) => store.listed(kv, apiVersionOf(group, m.gvk.version)));
      },
    };
    const writer: ObjectWriter = {
      fresh: async (group, resource, namespace, name) => {
        const m = mappingOf(group, resource);
        if (!m) return undefined;
        const kv = await this.storage.get(objectKey(group, resource, m.namespaced ? namespace : '', name));
        return kv ? this.storeFor(m).listed(kv, apiVersionOf(group, m.gvk.version)) : undefined;
      },
      updateStatus: async (group, resource, namespace, name, transform) => {
        const m = mappingOf(group, resource);
        if (!m) throw statusErrors.notFound({ group, resource }, name);
        const scope = { namespace, apiVersion: apiVersionOf(group, m.gvk.version), dryRun: false };
        const written = await this.storeFor(m).update(
          scope,
          name,
          (current) => {
            if (!current) throw statusErrors.notFound({ group, resource }, name);
            const next = transform(current);
            // conditional on the version read, retried on a conflicting write
            delete next.metadata.resourceVersion;
            return next;
          },
          { fieldValidation: 'Ignore', warnings: [] },
          'status',
        );
        return written.object;
      },
    };
    const plugins = config.admissionPlugins ?? defaultAdmissionPlugins;
    // the authorizer is the one configured when a request comes (access control may be enabled later)
    const authorize = (attributes: AuthorizationAttributes) => this.authorizer.authorize(attributes);
    const features = config.featureGates ?? new FeatureGate(DEFAULT_FEATURE_GATES);
    const featureEnabled = (gate: string) => features.enabled(gate);
    this.admission = new AdmissionChain(
      plugins.map((n) => admissionPlugins[n]!({ lookup, writer, authorize, featureEnabled })),
    );
    this.storage = new InstrumentedStorage(config.storage, this.metrics.storageLatency, this.metrics);
    this.mapper = new RESTMapper(declarations);
    this.customResources = new CustomResourceDefinitions({
      mapper: this.mapper,
      storage: this.storage,
      storeFor: (m) => this.storeFor(m),
      install: (decl) => this.installKind(decl),
      uninstall: (group, plural) => this.uninstallKind(group, plural),
    });
    this.codec = new ProtobufCodec(declarations);
    this.storeOptions = {
      selfLinks: !features.enabled('RemoveSelfLink'),
      managedFields: features.enabled('ServerSideApply'),
      featureEnabled,
    };
    this.resources = new ResourceHandler({
      mapper: this.mapper,
      codec: this.codec,
      minRequestTimeoutSeconds: config.minRequestTimeoutSeconds ?? 1800,
      features,
      storeFor: (m) => this.storeFor(m),
      virtualHandler: (group, resource) => this.virtualHandlers.get(`${group}/${resource}`),
    });
    // POST namespaces/<ns>/bindings binds the pod its Binding names, as pods/<name>/binding does
    this.virtualHandlers.set('/bindings', (_declaration, request) => {
      const pods = this.mapper.forResource('', 'v1', 'pods');
      const store = pods ? this.storeFor(pods) : undefined;
      const bind = store?.strategy.subresources.binding;
      if (!store || !bind) throw notFoundPath();
      return bind(store, { ...request, name: request.body?.metadata?.name ?? '', subresource: 'binding' });
    });
    installResourceMetrics(this, () => this.config.kubeletClient);
    this.discovery = new Discovery(this.mapper, () => this.address());
    this.inflight = new InflightLimiter(config.maxRequestsInflight, config.maxMutatingRequestsInflight);
  }

  /**
   * Serves one more kind (a custom resource): maps it, gives it a watch cache like every stored
   * kind, and replaces the store of an earlier declaration of it so that later requests see the new one.
   */
  private async installKind(decl: KindDeclaration<any>): Promise<void> {
    const key = `${decl.group}/${decl.plural}`;
    if (this.config.watchCache !== false && this.cachers.size && !this.cachers.has(key)) {
      this.cachers.set(
        key,
        await Cacher.start(this.storage, { prefix: resourcePrefix(decl.group, decl.plural) }),
      );
    }
    this.mapper.add(decl);
    this.stores.delete(key);
    this.mappingsChanged();
  }

  /** Stops serving a kind installed by {@link installKind}. */
  private async uninstallKind(group: string, plural: string): Promise<void> {
    const key = `${group}/${plural}`;
    this.mapper.remove(group, plural);
    this.stores.delete(key);
    this.mappingsChanged();
    const cacher = this.cachers.get(key);
    this.cachers.delete(key);
    await cacher?.close();
  }

  /** Forgets what was derived from the mapper (admission's lookups, OpenAPI documents). */
  private mappingsChanged(): void {
    this.preferredMappings.clear();
    this.openapiV2 = undefined;
    this.openapiV2Proto = undefined;
    this.openapiV2ETag = undefined;
    this.openapiV3.clear();
  }

  /** The store of a resource; every version of a kind shares one. */
  storeFor(mapping: RESTMapping): GenericStore {
    const key = `${mapping.gvr.group}/${mapping.gvr.resource}`;
    let store = this.stores.get(key);
    if (!store) {
      const storage = this.cachers.get(key) ?? this.storage;
      store = new GenericStore(
        storage,
        strategyFor(mapping.declaration, this.strategyContext),
        this.admission,
        {
          ...this.storeOptions,
          ttlSeconds: this.timeToLive(mapping.declaration),
        },
      );
      this.stores.set(key, store);
    }
    return store;
  }

  /** The time to live of a kind's objects in seconds, if its declaration gives them one. */
  private timeToLive(declaration: KindDeclaration<any>): number | undefined {
    const setting = declaration.timeToLive;
    if (!setting) return undefined;
    return this.config.timeToLive?.[setting] ?? defaultTimeToLive[setting];
  }

  address(): string {
    if (this.config.advertiseAddress) return this.config.advertiseAddress;
    const a = this.server?.address() as AddressInfo | null;
    return a ? `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : '';
  }

  port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  /** Starts the watch caches (once); every store created afterwards reads through its resource's cache. */
  private async prepareStorage(): Promise<void> {
    if (this.config.watchCache === false || this.cachers.size) return;
    for (const m of this.mapper.all()) {
      const key = `${m.gvr.group}/${m.gvr.resource}`;
      if (!m.preferred || m.declaration.virtual || this.cachers.has(key)) continue;
      this.cachers.set(
        key,
        await Cacher.start(this.storage, { prefix: resourcePrefix(m.gvr.group, m.gvr.resource) }),
      );
    }
  }

  /** Listens. Call after bootstrap() and after authentication is configured. */
  async start(): Promise<void> {
    await this.prepareStorage();
    // the kinds of stored CustomResourceDefinitions are served from the first request on
    await this.customResources.start();
    const tuning = tlsServerTuning(this.config.tls.minVersion ?? '', this.config.tls.cipherSuites ?? []);
    const SNICallback = sniCallback(this.config.tls.sniCertKeys ?? [], tuning);
    this.server = https.createServer(
      {
        cert: this.config.tls.cert,
        key: this.config.tls.key,
        ...tuning,
        ...(SNICallback ? { SNICallback } : {}),
        ...(this.config.clientCA
          ? { ca: this.config.clientCA, requestCert: true, rejectUnauthorized: false }
          : {}),
      },
      (req, res) => void this.serve(req, res),
    );
    // Upgrade requests (pods/exec and the other connect subresources) take the same way
    serveUpgrades(this.server, (req, res) => void this.serve(req, res));
    this.server.keepAliveTimeout = 120_000;
    this.server.headersTimeout = 125_000;
    this.server.requestTimeout = 0;
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.config.securePort, this.config.bindAddress, () => resolve());
    });
    await this.bootstrapKubernetesService();
    this.ready = true;
    this.systemNamespacesTimer = setInterval(
      () => void this.ensureSystemNamespaces().catch(() => undefined),
      this.config.systemNamespacesIntervalMs ?? 60_000,
    );
    this.systemNamespacesTimer.unref();
  }

  /** Creates the system namespaces that are missing (a deleted one comes back). */
  private async ensureSystemNamespaces(): Promise<void> {
    const namespaces = this.mapper.forResource('', 'v1', 'namespaces');
    if (!namespaces) return;
    const store = this.storeFor(namespaces);
    for (const name of bootstrapNamespaces) {
      await ignoreExisting(
        store.create(
          { namespace: '', apiVersion: 'v1', dryRun: false },
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
          { fieldValidation: 'Strict', warnings: [] },
        ),
      );
    }
  }

  /**
   * Creates what every cluster starts with: the system namespaces and the `default/kubernetes`
   * Service with its Endpoints; installs the services registry with its cluster IP and node port
   * allocator. Idempotent.
   */
  async bootstrap(): Promise<void> {
    // the stores made here read through the watch caches like every later one
    await this.prepareStorage();
    await this.bootstrapPriorityClasses();
    if (!this.mapper.forResource('', 'v1', 'namespaces')) return;
    await this.ensureSystemNamespaces();
    const services = this.mapper.forResource('', 'v1', 'services');
    if (!services) return;
    const allocator = new ServiceIPAllocator(
      this.storage,
      this.config.serviceClusterIPRange || undefined,
      this.config.serviceNodePortRange || undefined,
    );
    const key = `${services.gvr.group}/${services.gvr.resource}`;
    this.stores.set(
      key,
      new GenericStore(
        new ServiceStorage(this.cachers.get(key) ?? this.storage, allocator),
        strategyFor(services.declaration, this.strategyContext),
        this.admission,
        this.storeOptions,
      ),
    );
    this.kubernetesServiceIP = allocator.firstIP();
    // the Service names this server's port: created here when listening already, else by start()
    if (this.port()) await this.bootstrapKubernetesService();
  }

  /** The system PriorityClasses every cluster has (Kubernetes' bootstrap-system-priority-classes). */
  private async bootstrapPriorityClasses(): Promise<void> {
    const mapping = this.mapper.forResource('scheduling.k8s.io', 'v1', 'priorityclasses');
    if (!mapping) return;
    const store = this.storeFor(mapping);
    for (const { name, value, description } of systemPriorityClassList) {
      await ignoreExisting(
        store.create(
          { namespace: '', apiVersion: 'scheduling.k8s.io/v1', dryRun: false },
          {
            apiVersion: 'scheduling.k8s.io/v1',
            kind: 'PriorityClass',
            metadata: { name },
            value,
            description,
          },
          { fieldValidation: 'Strict', warnings: [] },
        ),
      );
    }
  }

  /** The `default/kubernetes` Service (the range's first IP, 443 → this server) and its Endpoints. */
  private async bootstrapKubernetesService(): Promise<void> {
    const clusterIP = this.kubernetesServiceIP;
    if (!clusterIP) return;
    const scope = { namespace: 'default', apiVersion: 'v1', dryRun: false };
    const options = { fieldValidation: 'Strict' as const, warnings: [] };
    const port = this.port();
    const services = this.storeFor(this.mapper.forResource('', 'v1', 'services')!);
    await ignoreExisting(
      services.create(
        scope,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: {
            name: 'kubernetes',
            namespace: 'default',
            labels: { component: 'apiserver', provider: 'kubernetes' },
          },
          spec: {
            type: 'ClusterIP',
            clusterIP,
            ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }],
            sessionAffinity: 'None',
          },
        },
        options,
      ),
    );
    const endpointsMapping = this.mapper.forResource('', 'v1', 'endpoints');
    if (!endpointsMapping) return;
    const ip = endpointIP(
      this.address()
        .replace(/:\d+$/, '')
        .replace(/^\[(.*)\]$/, '$1'),
    );
    if (!ip) return;
    const endpoints = this.storeFor(endpointsMapping);
    await endpoints.update(
      scope,
      'kubernetes',
      (current) => {
        const addresses = [
          ...(
            (current?.subsets as { addresses?: { ip: string }[] }[] | undefined)?.[0]?.addresses ?? []
          ).filter((a) => a.ip !== ip),
          { ip },
        ];
        return {
          apiVersion: 'v1',
          kind: 'Endpoints',
          metadata: {
            ...(current?.metadata ?? {}),
            resourceVersion: undefined,
            name: 'kubernetes',
            namespace: 'default',
            labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' },
          },
          subsets: [{ addresses, ports: [{ name: 'https', port, protocol: 'TCP' }] }],
        };
      },
      options,
    );
  }

  async close(): Promise<void> {
    this.ready = false;
    clearInterval(this.systemNamespacesTimer);
    this.customResources.stop();
    for (const c of this.cachers.values()) await c.close();
    this.cachers.clear();
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // the raw path is routed as sent: dot segments are names, not navigation
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const url = {
      pathname: q < 0 ? raw : raw.slice(0, q),
      searchParams: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)),
    };
    const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
    let release: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    if (info.isResourceRequest) this.observe(info, res);
    try {
      let user = await this.authenticate(req);
      if (asksToImpersonate(req.rawHeaders))
        user = await impersonate(req.headersDistinct, user, this.authorizer);
      await this.authorize(user, info);
      if (info.isResourceRequest && info.verb !== 'watch')
        release = this.inflight.acquire(isMutatingVerb(info.verb));
      if (!info.isResourceRequest) {
        this.nonResource(req, res, info, url);
        return;
      }
      // an Upgrade request's bytes past its headers belong to the protocol it switches to; a connect
      // subresource (proxy) streams the body on itself
      const body = upgradeOf(req) || this.resources.streamsBody(info) ? Buffer.alloc(0) : await readBody(req);
      const work = this.resources.handle(
        { info, query: url.searchParams, headers: req.headers, body, user, http: req },
        res,
      );
      if (info.verb === 'watch') {
        await work;
      } else {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                statusErrors.timeout(
                  'request did not complete within requested timeout - context deadline exceeded',
                  0,
                ),
              ),
            this.config.requestTimeoutMs,
          );
        });
        await Promise.race([work, timeout]);
      }
    } catch (e) {
      this.sendStatus(res, e instanceof StatusError ? e : toStatusError(e), req.headers.accept);
    } finally {
      if (timer) clearTimeout(timer);
      release?.();
    }
  }

  /** Counts the request and its latency when the response is done (watches when they end). */
  private observe(info: RequestInfo, res: ServerResponse): void {
    const labels = {
      verb: info.verb.toUpperCase(),
      group: info.apiGroup,
      version: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      scope: info.name ? 'resource' : info.namespace ? 'namespace' : 'cluster',
    };
    const m = this.metrics;
    const key = `${labels.verb}\0${labels.group}\0${labels.version}\0${labels.resource}\0${labels.subresource}\0${labels.scope}`;
    const end =
      info.verb === 'watch'
        ? undefined
        : m.child(`latency\0${key}`, () => m.latency.labels(labels)).startTimer();
    const kind = isMutatingVerb(info.verb) ? 'mutating' : 'readOnly';
    const gauge =
      info.verb === 'watch'
        ? m.child(`watchers\0${info.apiGroup}\0${info.apiVersion}\0${info.resource}`, () =>
            m.watchers.labels({ group: info.apiGroup, version: info.apiVersion, kind: info.resource }),
          )
        : m.child(`inflight\0${kind}`, () => m.inflight.labels({ request_kind: kind }));
    gauge.inc();
    res.once('close', () => {
      const code = String(res.statusCode);
      m.child(`requests\0${key}\0${code}`, () => m.requests.labels({ ...labels, code })).inc();
      gauge.dec();
      end?.();
    });
  }

  private async authenticate(req: IncomingMessage): Promise<UserInfo> {
    const user = this.config.authenticator ? await this.config.authenticator.authenticate(req) : undefined;
    if (user) return user;
    if (this.config.anonymousAuth === false && this.config.authenticator) throw statusErrors.unauthorized();
    return anonymousUser;
  }

  /** The configured authorizer; every request is allowed without one. */
  private get authorizer(): Authorizer {
    return this.config.authorizer ?? alwaysAllow;
  }

  private async authorize(user: UserInfo, info: RequestInfo): Promise<void> {
    const authorizer = this.authorizer;
    const attributes = {
      user,
      verb: info.isResourceRequest ? info.verb : info.verb === 'head' ? 'get' : info.verb,
      isResourceRequest: info.isResourceRequest,
      path: info.path,
      namespace: info.namespace,
      apiGroup: info.apiGroup,
      apiVersion: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      name: info.name,
    };
    const result = await authorizer.authorize(attributes);
    if (result.decision === 'Allow') return;
    throw statusErrors.forbidden(forbiddenMessage(attributes, result.reason), {
      name: info.name,
      group: info.apiGroup,
      kind: info.resource,
    });
  }

  private sendStatus(res: ServerResponse, e: StatusError, accept: string | undefined): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    const { body, contentType } = encodeStatus(e.status, accept, this.codec);
    res.writeHead(e.code, {
      'Content-Type': contentType,
      'Content-Length': String(body.length),
      ...e.headers,
    });
    res.end(body);
  }

  private sendJSON(res: ServerResponse, obj: unknown, contentType = 'application/json'): void {
    const body = Buffer.from(JSON.stringify(obj) + '\n');
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': String(body.length) });
    res.end(body);
  }

  private nonResource(
    req: IncomingMessage,
    res: ServerResponse,
    info: RequestInfo,
    url: { pathname: string; searchParams: URLSearchParams },
  ): void {
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD')
      throw statusErrors.methodNotAllowed('the server does not allow this method on the requested resource');
    req.resume();
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (path === '/version') return this.sendJSON(res, this.config.version);
    if (
      path === '/healthz' ||
      path === '/livez' ||
      path === '/readyz' ||
      /^\/(healthz|livez|readyz)\//.test(path)
    ) {
      return this.health(res, path, url.searchParams.has('verbose'));
    }
    if (path === '/api' || path === '/apis') {
      // kubectl asks for the aggregated document first and falls back to the plain one
      res.setHeader('Vary', 'Accept');
      const aggregated = aggregatedDiscoveryVersion(req.headers.accept);
      if (aggregated) {
        const doc = aggregatedDiscovery(this.mapper, path === '/api' ? 'api' : 'apis', aggregated);
        return this.sendJSON(res, doc, aggregatedDiscoveryContentType(aggregated));
      }
      return this.sendJSON(res, path === '/api' ? this.discovery.coreVersions() : this.discovery.groups());
    }
    if (info.apiPrefix === 'apis' && !info.apiVersion) {
      const group = this.discovery.apiGroup(path.split('/')[2] ?? '');
      if (group) return this.sendJSON(res, group);
      throw notFoundPath();
    }
    if (info.apiPrefix && info.apiVersion) {
      const list = this.discovery.resources(info.apiGroup, info.apiVersion);
      if (list) return this.sendJSON(res, list);
      throw notFoundPath();
    }
    if (path === '/metrics') {
      void this.metrics.registry.metrics().then((text) => {
        res.writeHead(200, { 'Content-Type': this.metrics.registry.contentType });
        res.end(text);
      });
      return;
    }
    if (path === '/openapi/v2') return this.openAPIv2(req, res);
    if (path === '/openapi/v3') return this.openAPIv3Index(res);
    if (path.startsWith('/openapi/v3/')) return this.openAPIv3(req, res, path.slice('/openapi/v3/'.length));
    if (path === '/') {
      return this.sendJSON(res, {
        paths: [
          '/api',
          '/api/v1',
          '/apis',
          '/healthz',
          '/livez',
          '/metrics',
          '/openapi/v2',
          '/openapi/v3',
          '/readyz',
          '/version',
        ],
      });
    }
    throw notFoundPath();
  }

  private health(res: ServerResponse, path: string, verbose: boolean): void {
    const checks: [string, boolean][] = [
      ['ping', true],
      ['log', true],
      ['etcd', true],
      ['poststarthook/bootstrap', this.ready],
    ];
    const [, root, check] = path.split('/');
    if (check) {
      const found = checks.find(([n]) => n === path.slice(root!.length + 2));
      if (!found) throw notFoundPath();
      res.writeHead(found[1] ? 200 : 500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(found[1] ? 'ok' : `internal server error: ${found[0]} failed`);
      return;
    }
    const ok = checks.every(([, v]) => v);
    res.writeHead(ok ? 200 : 500, {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    });
    if (!verbose) {
      res.end(ok ? 'ok' : `${root} check failed`);
      return;
    }
    const lines = checks.map(([n, v]) => (v ? `[+]${n} ok` : `[-]${n} failed: reason withheld`));
    lines.push(ok ? `${root} check passed` : `${root} check failed`);
    res.end(lines.join('\n') + '\n');
  }

  private openAPIInfo(): OpenAPIInfo {
    return { title: 'orch', version: this.config.version.gitVersion };
  }

  private openAPIOptions(): OpenAPIOptions {
    return { applyPatch: this.storeOptions.managedFields };
  }

  private openAPIv2(req: IncomingMessage, res: ServerResponse): void {
    const format = openAPIv2Format(req.headers.accept);
    if (!format) {
      throw statusErrors.notAcceptable(
        `only the following media types are accepted: application/json, ${openAPIv2ProtobufMediaType}`,
      );
    }
    this.openapiV2 ??= Buffer.from(
      JSON.stringify(buildOpenAPIv2(this.mapper.all(), this.openAPIInfo(), this.openAPIOptions())),
    );
    this.openapiV2ETag ??= `"${createHash('sha512').update(this.openapiV2).digest('hex').toUpperCase()}"`;
    if (notModified(req, res, this.openapiV2ETag)) return;
    let body = this.openapiV2;
    if (format === 'protobuf') {
      // encoded from the JSON document, and forgotten with it when the mappings change
      this.openapiV2Proto ??= encodeOpenAPIv2(JSON.parse(this.openapiV2.toString('utf8')));
      body = this.openapiV2Proto;
    }
    res.writeHead(200, {
      'Content-Type': format === 'protobuf' ? openAPIv2ProtobufMediaType : 'application/json',
      'Content-Length': String(body.length),
      Vary: 'Accept',
      Etag: this.openapiV2ETag,
    });
    res.end(body);
  }

  private groupVersionDoc(path: string): { body: Buffer; hash: string } | undefined {
    let doc = this.openapiV3.get(path);
    if (doc) return doc;
    const mappings = this.mapper.all().filter((m) => openAPIv3PathOf(m.gvk.group, m.gvk.version) === path);
    if (!mappings.length) return undefined;
    const body = Buffer.from(
      JSON.stringify(buildOpenAPIv3(mappings, this.openAPIInfo(), this.openAPIOptions())),
    );
    doc = { body, hash: createHash('sha512').update(body).digest('hex').slice(0, 128).toUpperCase() };
    this.openapiV3.set(path, doc);
    return doc;
  }

  private openAPIv3Index(res: ServerResponse): void {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const m of this.mapper.all()) {
      const p = openAPIv3PathOf(m.gvk.group, m.gvk.version);
      if (paths[p]) continue;
      const doc = this.groupVersionDoc(p)!;
      paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${doc.hash}` };
    }
    this.sendJSON(res, { paths });
  }

  private openAPIv3(req: IncomingMessage, res: ServerResponse, path: string): void {
    const doc = this.groupVersionDoc(path);
    if (!doc) throw notFoundPath();
    if (notModified(req, res, `"${doc.hash}"`)) return;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': String(doc.body.length),
      'Cache-Control': 'public, immutable',
      Etag: `"${doc.hash}"`,
    });
    res.end(doc.body);
  }
}

/** Answers 304 Not Modified when the request's If-None-Match names `etag` (or `*`). */
function notModified(req: IncomingMessage, res: ServerResponse, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const tags = header.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (!tags.includes(etag) && !tags.includes('*')) return false;
  res.writeHead(304, { Etag: etag });
  res.end();
  return true;
}
