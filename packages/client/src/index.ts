export {
  type KubeList,
  type KubeObject,
  type ResourceDescriptor,
  type WatchEvent,
  type WatchEventType,
} from './types';

export {
  type Kubeconfig,
  type KubeconfigCluster,
  type KubeconfigContext,
  type KubeconfigUser,
  type Named,
} from './kubeconfig/Kubeconfig';
export {
  defaultKubeconfigFiles,
  loadKubeconfigFile,
  loadKubeconfigFiles,
  parseKubeconfig,
} from './kubeconfig/loadKubeconfig';
export {
  type ClientConfig,
  type KubeconfigOverrides,
  normalizeServer,
  restConfigFromKubeconfig,
} from './kubeconfig/restConfigFromKubeconfig';
export {
  inClusterConfig,
  type InClusterOptions,
  NotInClusterError,
  SERVICE_ACCOUNT_DIR,
} from './kubeconfig/inClusterConfig';
export { buildConfigFromFlags, type ConfigFlags } from './kubeconfig/buildConfigFromFlags';
export { DEFAULT_TOKEN_REFRESH_MS, FileTokenSource } from './kubeconfig/FileTokenSource';

export { DEFAULT_BURST, DEFAULT_QPS, type RestConfig } from './rest/RestConfig';
export {
  DEFAULT_MAX_RETRIES,
  rateLimiterForConfig,
  type RawResponse,
  RestClient,
  type RestClientOptions,
} from './rest/RestClient';
export { PatchType, type QueryParams, type QueryValue, Request, type Verb } from './rest/Request';
export {
  baseMediaType,
  type Codec,
  CodecRegistry,
  JSON_MEDIA_TYPE,
  JsonCodec,
  KUBERNETES_PROTOBUF_MEDIA_TYPE,
  PROTOBUF_MEDIA_TYPE,
} from './rest/Codec';
export { ProtobufWireCodec, sharedProtobufCodec } from './rest/ProtobufWireCodec';
export { defaultCodecRegistry } from './rest/defaultCodecRegistry';
export {
  hasStatusCause,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isExpiredOrGone,
  isForbidden,
  isGone,
  isInternalError,
  isInvalid,
  isMethodNotSupported,
  isNotFound,
  isResourceExpired,
  isServerTimeout,
  isServiceUnavailable,
  isStatusObject,
  isTimeout,
  isTooManyRequests,
  isUnauthorized,
  isUnsupportedMediaType,
  StatusError,
  statusErrorFromResponse,
  StatusReason,
} from './rest/StatusError';
export { type Clock, type RequestRateLimiter, TokenBucket, unlimitedRateLimiter } from './rest/TokenBucket';
export { buildUserAgent, type UserAgentOptions } from './rest/userAgent';

export {
  type CallOptions,
  type DeleteOptions,
  type GetOptions,
  type ListOptions,
  type PatchKind,
  type PatchOptions,
  type Preconditions,
  type WriteOptions,
} from './typed/options';
export {
  type ListAllOptions,
  type ResolvedResource,
  resolveTarget,
  type ResourceTarget,
  TypedClient,
} from './typed/TypedClient';
export { clientFor, type ClientForOptions, type ObjectOfTarget } from './typed/clientFor';
export { Clientset, defaultRESTMapper } from './typed/Clientset';

export {
  LEADER_ANNOTATION,
  type LeaderElectionRecord,
  parseRecord,
  UNKNOWN_LEADER,
} from './leaderelection/LeaderElectionRecord';
export { type LockConfig, type LockState, type ResourceLock } from './leaderelection/ResourceLock';
export { LeaseLock } from './leaderelection/LeaseLock';
export { leaderElectionClient } from './leaderelection/leaderElectionClient';
export { AnnotationLock } from './leaderelection/AnnotationLock';
export { MultiLock } from './leaderelection/MultiLock';
export { newResourceLock, type ResourceLockType, resourceLockTypes } from './leaderelection/newResourceLock';
export {
  defaultIdentity,
  JITTER_FACTOR,
  type LeaderCallbacks,
  type LeaderElectionConfig,
  LeaderElector,
  validateLeaderElectionConfig,
} from './leaderelection/LeaderElector';

export {
  AGGREGATED_MESSAGE_PREFIX,
  type CorrelationResult,
  DEFAULT_AGGREGATE_INTERVAL_SECONDS,
  DEFAULT_AGGREGATE_MAX_EVENTS,
  DEFAULT_SPAM_BURST,
  DEFAULT_SPAM_QPS,
  EventCorrelator,
  type EventCorrelatorOptions,
  eventNameSuffix,
  MAX_LRU_CACHE_ENTRIES,
} from './events/EventCorrelator';
export { EventQueue } from './events/EventQueue';
export { type EventSink, eventSinkFor } from './events/EventSink';
export {
  DEFAULT_EVENT_QUEUE_LENGTH,
  DEFAULT_EVENT_RETRY_SLEEP_MS,
  DEFAULT_MAX_TRIES_PER_EVENT,
  EventBroadcaster,
  type EventBroadcasterOptions,
  type EventRecorder,
  type EventSource,
  type EventType,
} from './events/EventBroadcaster';
export {
  EventsV1Broadcaster,
  type EventsV1BroadcasterOptions,
  type EventsV1Recorder,
} from './events/EventsV1Broadcaster';
export { objectReference } from './events/objectReference';

export {
  type ControlleeExpectations,
  ControllerExpectations,
  EXPECTATIONS_TIMEOUT_MS,
  UIDTrackingControllerExpectations,
} from './controller/ControllerExpectations';
export {
  ControllerRefManager,
  type ControllerRefManagerOptions,
  getControllerOf,
  newControllerRef,
  recheckDeletionTimestamp,
} from './controller/ControllerRefManager';

export { type Framer, LengthPrefixedFramer, LineFramer } from './watch/Framer';
export { asWatchEvent, type WatchEventDecoder, WatchStream } from './watch/WatchStream';

export {
  DeletedFinalStateUnknown,
  type KeyFunc,
  metaNamespaceKeyFunc,
  splitMetaNamespaceKey,
} from './cache/keyFunc';
export { type Store } from './cache/Store';
export {
  Indexer,
  type Indexers,
  type IndexFunc,
  metaNamespaceIndexFunc,
  NAMESPACE_INDEX,
} from './cache/Indexer';
export { Lister, NamespaceLister } from './cache/Lister';
export { type ListerWatcher, listWatchForResource, type ListWatchOptions } from './cache/ListerWatcher';
export { Reflector, type ReflectorOptions, type ReflectorStore } from './cache/Reflector';
export {
  type HandlerRegistration,
  type ResourceEventHandler,
  SharedIndexInformer,
  type SharedIndexInformerOptions,
} from './cache/SharedIndexInformer';
export {
  resourceKey,
  SharedInformerFactory,
  type SharedInformerFactoryOptions,
} from './cache/SharedInformerFactory';
export {
  type InformerSynced,
  waitForCacheSync,
  type WaitForCacheSyncOptions,
} from './cache/waitForCacheSync';

export { Queue, type QueueGetResult } from './workqueue/Queue';
export { DelayingQueue } from './workqueue/DelayingQueue';
export { RateLimitingQueue } from './workqueue/RateLimitingQueue';
export {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  FixedItemIntervalRateLimiter,
  ItemExponentialFailureRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
} from './workqueue/rateLimiters';
export { runWorkers, type RunWorkersOptions } from './workqueue/runWorkers';

export { Backoff, type BackoffOptions } from './util/Backoff';
export { sleep } from './util/sleep';
export { formatMicroTime, formatTime } from './util/metaTime';
export { LruCache } from './util/LruCache';

export {
  type APIGroup,
  type APIGroupList,
  type APIResource,
  type APIResourceList,
  type APIVersions,
  type GroupVersionForDiscovery,
} from './discovery/discoveryTypes';
export { DiscoveryClient, type PartialDiscovery } from './discovery/DiscoveryClient';
export { GroupDiscoveryFailedError, isGroupDiscoveryFailed } from './discovery/GroupDiscoveryFailedError';
export {
  type DiscoveredResource,
  discoveredResources,
  filteredBy,
  parseGroupVersion,
  preferredResources,
  type ResourcePredicate,
  supportsAllVerbs,
} from './discovery/preferredResources';
