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
