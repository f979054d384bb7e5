export * from './types';

export * from './kubeconfig/Kubeconfig';
export * from './kubeconfig/loadKubeconfig';
export * from './kubeconfig/restConfigFromKubeconfig';
export * from './kubeconfig/inClusterConfig';
export * from './kubeconfig/buildConfigFromFlags';
export * from './kubeconfig/FileTokenSource';

export * from './rest/RestConfig';
export * from './rest/RestClient';
export * from './rest/Request';
export * from './rest/Codec';
export * from './rest/ProtobufWireCodec';
export * from './rest/defaultCodecRegistry';
export * from './rest/StatusError';
export * from './rest/TokenBucket';
export * from './rest/userAgent';

export * from './typed/options';
export * from './typed/TypedClient';
export * from './typed/clientFor';
export * from './typed/Clientset';

export * from './leaderelection/LeaderElectionRecord';
export * from './leaderelection/ResourceLock';
export * from './leaderelection/LeaseLock';
export * from './leaderelection/AnnotationLock';
export * from './leaderelection/MultiLock';
export * from './leaderelection/newResourceLock';
export * from './leaderelection/LeaderElector';

export * from './events/EventCorrelator';
export * from './events/EventQueue';
export * from './events/EventSink';
export * from './events/EventBroadcaster';
export * from './events/EventsV1Broadcaster';
export * from './events/objectReference';

export * from './controller/ControllerExpectations';
export * from './controller/ControllerRefManager';

export * from './watch/Framer';
export * from './watch/WatchStream';

export * from './cache/keyFunc';
export * from './cache/Store';
export * from './cache/Indexer';
export * from './cache/Lister';
export * from './cache/ListerWatcher';
export * from './cache/Reflector';
export * from './cache/SharedIndexInformer';
export * from './cache/SharedInformerFactory';
export * from './cache/waitForCacheSync';

export * from './workqueue/Queue';
export * from './workqueue/DelayingQueue';
export * from './workqueue/RateLimitingQueue';
export * from './workqueue/rateLimiters';
export * from './workqueue/runWorkers';

export * from './util/Backoff';
export * from './util/sleep';
export * from './util/metaTime';
export * from './util/LruCache';
