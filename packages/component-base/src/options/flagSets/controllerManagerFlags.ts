import type { FlagSetSpec, FlagSpec } from '../flagSpec';
import { flag } from '../flagSpec';

const int32 = (name: string, def: number, help: string): FlagSpec =>
  flag({ name, type: 'int32', default: def, help });
const duration = (name: string, def: number, help: string): FlagSpec =>
  flag({ name, type: 'duration', default: def, help });
const MINUTE = 60_000;

/**
 * Flags shared by the controller manager and the cloud controller manager, with the same defaults;
 * `controllers` and `disabledByDefault` feed the --controllers help.
 */
export function genericControllerManagerFlags(
  controllers: readonly string[],
  disabledByDefault: readonly string[],
): FlagSpec[] {
  const disabled = disabledByDefault.length ? disabledByDefault.join(', ') : 'none';
  return [
    flag({
      name: 'allocate-node-cidrs',
      type: 'bool',
      help: 'Should CIDRs for Pods be allocated and set on the cloud provider.',
    }),
    flag({
      name: 'cidr-allocator-type',
      type: 'string',
      default: 'RangeAllocator',
      help: 'Type of CIDR allocator to use',
    }),
    flag({
      name: 'cloud-config',
      type: 'string',
      help: 'The path to the cloud provider configuration file. Empty string for no configuration file.',
    }),
    flag({
      name: 'cloud-provider',
      type: 'string',
      help: 'The provider for cloud services. Empty string for no provider.',
    }),
    flag({
      name: 'cluster-cidr',
      type: 'string',
      help: 'CIDR Range for Pods in cluster. Requires --allocate-node-cidrs to be true',
    }),
    flag({
      name: 'cluster-name',
      type: 'string',
      default: 'orch',
      help: 'The instance prefix for the cluster.',
    }),
    flag({
      name: 'configure-cloud-routes',
      type: 'bool',
      default: true,
      help: 'Should CIDRs allocated by allocate-node-cidrs be configured on the cloud provider.',
    }),
    duration('controller-start-interval', 0, 'Interval between starting controller managers.'),
    flag({
      name: 'controllers',
      type: 'stringList',
      default: ['*'],
      help: `A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.\nAll controllers: ${controllers.join(', ')}\nDisabled-by-default controllers: ${disabled}`,
    }),
    flag({
      name: 'external-cloud-volume-plugin',
      type: 'string',
      help: 'The plugin to use when the cloud provider is set to external. Can be empty; only used when cloud-provider is external. Lets the node and volume controllers work for in-tree cloud providers.',
    }),
    duration(
      'min-resync-period',
      12 * 60 * MINUTE,
      'The resync period in reflectors will be random between MinResyncPeriod and 2*MinResyncPeriod.',
    ),
    duration('node-monitor-period', 5_000, 'The period for syncing NodeStatus in NodeController.'),
    duration(
      'route-reconciliation-period',
      10_000,
      'The period for reconciling routes created for Nodes by the cloud provider.',
    ),
    flag({
      name: 'use-service-account-credentials',
      type: 'bool',
      help: 'If true, use individual service account credentials for each controller.',
    }),
  ];
}

/** `--concurrent-service-syncs`, shared with the cloud controller manager. */
export function serviceControllerFlags(): FlagSpec[] {
  return [
    int32(
      'concurrent-service-syncs',
      1,
      'The number of services that are allowed to sync concurrently. Larger number = more responsive service management, but more CPU (and network) load',
    ),
  ];
}

/** The controller manager's controller-specific flag sections (doc 3, "Controller manager options"). */
export function controllerManagerControllerFlagSets(): FlagSetSpec[] {
  return [
    {
      name: 'Attachdetach controller',
      flags: [
        duration(
          'attach-detach-reconcile-sync-period',
          MINUTE,
          'The reconciler sync wait time between volume attach detach. This duration must be larger than one second.',
        ),
        flag({
          name: 'disable-attach-detach-reconcile-sync',
          type: 'bool',
          help: 'Disable volume attach detach reconciler sync.',
        }),
      ],
    },
    {
      name: 'Csrsigning controller',
      flags: [
        flag({
          name: 'cluster-signing-cert-file',
          type: 'string',
          default: '/etc/orch/ca/ca.pem',
          help: 'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates',
        }),
        flag({
          name: 'cluster-signing-key-file',
          type: 'string',
          default: '/etc/orch/ca/ca.key',
          help: 'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates',
        }),
        duration(
          'experimental-cluster-signing-duration',
          8760 * 60 * MINUTE,
          'The length of duration signed certificates will be given.',
        ),
      ],
    },
    {
      name: 'Deployment controller',
      flags: [
        int32(
          'concurrent-deployment-syncs',
          5,
          'The number of deployment objects that are allowed to sync concurrently. Larger number = more responsive deployments, but more CPU (and network) load',
        ),
        duration('deployment-controller-sync-period', 30_000, 'Period for syncing the deployments.'),
      ],
    },
    {
      name: 'Endpoint controller',
      flags: [
        int32(
          'concurrent-endpoint-syncs',
          5,
          'The number of endpoint syncing operations that will be done concurrently. Larger number = faster endpoint updating, but more CPU (and network) load',
        ),
        duration(
          'endpoint-updates-batch-period',
          0,
          'The length of endpoint updates batching period. Processing of pod changes will be delayed by this duration to join them with potential upcoming updates and reduce the overall number of endpoints updates.',
        ),
      ],
    },
    {
      name: 'Endpointslice controller',
      flags: [
        int32(
          'concurrent-service-endpoint-syncs',
          5,
          'The number of service endpoint syncing operations that will be done concurrently. Larger number = faster endpoint slice updating, but more CPU (and network) load.',
        ),
        int32(
          'max-endpoints-per-slice',
          100,
          'The maximum number of endpoints that will be added to an EndpointSlice. More endpoints per slice will result in less endpoint slices, but larger resources.',
        ),
      ],
    },
    {
      name: 'Garbagecollector controller',
      flags: [
        int32(
          'concurrent-gc-syncs',
          20,
          'The number of garbage collector workers that are allowed to sync concurrently.',
        ),
        flag({
          name: 'enable-garbage-collector',
          type: 'bool',
          default: true,
          help: 'Enables the generic garbage collector. MUST be synced with the corresponding flag of the API server.',
        }),
      ],
    },
    {
      name: 'Horizontalpodautoscaling controller',
      flags: [
        duration(
          'horizontal-pod-autoscaler-cpu-initialization-period',
          5 * MINUTE,
          'The period after pod start when CPU samples might be skipped.',
        ),
        duration(
          'horizontal-pod-autoscaler-downscale-stabilization',
          5 * MINUTE,
          'The period for which autoscaler will look backwards and not scale down below any recommendation it made during that period.',
        ),
        duration(
          'horizontal-pod-autoscaler-initial-readiness-delay',
          30_000,
          'The period after pod start during which readiness changes will be treated as initial readiness.',
        ),
        duration(
          'horizontal-pod-autoscaler-sync-period',
          15_000,
          'The period for syncing the number of pods in horizontal pod autoscaler.',
        ),
        flag({
          name: 'horizontal-pod-autoscaler-tolerance',
          type: 'float',
          default: 0.1,
          help: 'The minimum change (from 1.0) in the desired-to-actual metrics ratio for the horizontal pod autoscaler to consider scaling.',
        }),
      ],
    },
    {
      name: 'Namespace controller',
      flags: [
        int32(
          'concurrent-namespace-syncs',
          10,
          'The number of namespace objects that are allowed to sync concurrently. Larger number = more responsive namespace termination, but more CPU (and network) load',
        ),
        duration('namespace-sync-period', 5 * MINUTE, 'The period for syncing namespace life-cycle updates'),
      ],
    },
    {
      name: 'Nodeipam controller',
      flags: [
        int32('node-cidr-mask-size', 24, 'Mask size for node cidr in cluster.'),
        flag({
          name: 'service-cluster-ip-range',
          type: 'string',
          help: 'CIDR Range for Services in cluster. Requires --allocate-node-cidrs to be true',
        }),
      ],
    },
    {
      name: 'Nodelifecycle controller',
      flags: [
        flag({
          name: 'enable-taint-manager',
          type: 'bool',
          default: true,
          help: 'WARNING: Beta feature. If set to true enables NoExecute Taints and will evict all not-tolerating Pod running on Nodes tainted with this kind of Taints.',
        }),
        int32(
          'large-cluster-size-threshold',
          50,
          'Number of nodes from which NodeController treats the cluster as large for the eviction logic purposes. --secondary-node-eviction-rate is implicitly overridden to 0 for clusters this size or smaller.',
        ),
        flag({
          name: 'node-eviction-rate',
          type: 'float32',
          default: 0.1,
          help: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is healthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy).',
        }),
        duration(
          'node-monitor-grace-period',
          40_000,
          "Amount of time which we allow running Node to be unresponsive before marking it unhealthy. Must be N times more than the node agent's nodeStatusUpdateFrequency, where N means number of retries allowed for the node agent to post node status.",
        ),
        duration(
          'node-startup-grace-period',
          MINUTE,
          'Amount of time which we allow starting Node to be unresponsive before marking it unhealthy.',
        ),
        duration('pod-eviction-timeout', 5 * MINUTE, 'The grace period for deleting pods on failed nodes.'),
        flag({
          name: 'secondary-node-eviction-rate',
          type: 'float32',
          default: 0.01,
          help: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is unhealthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). This value is implicitly overridden to 0 if the cluster size is smaller than --large-cluster-size-threshold.',
        }),
        flag({
          name: 'unhealthy-zone-threshold',
          type: 'float32',
          default: 0.55,
          help: 'Fraction of Nodes in a zone which needs to be not Ready (minimum 3) for zone to be treated as unhealthy.',
        }),
      ],
    },
    {
      name: 'Persistentvolume-binder controller',
      flags: [
        flag({
          name: 'enable-dynamic-provisioning',
          type: 'bool',
          default: true,
          help: 'Enable dynamic provisioning for environments that support it.',
        }),
        flag({
          name: 'enable-hostpath-provisioner',
          type: 'bool',
          help: "Enable HostPath PV provisioning when running without a cloud provider. This allows testing and development of provisioning features. HostPath provisioning is not supported in any way, won't work in a multi-node cluster, and should not be used for anything other than testing or development.",
        }),
        flag({
          name: 'flex-volume-plugin-dir',
          type: 'string',
          default: '/usr/libexec/orch/node-agent-plugins/volume/exec/',
          help: 'Full path of the directory in which the flex volume plugin should search for additional third party volume plugins.',
        }),
        int32(
          'pv-recycler-increment-timeout-nfs',
          30,
          'the increment of time added per Gi to ActiveDeadlineSeconds for an NFS scrubber pod',
        ),
        int32(
          'pv-recycler-minimum-timeout-hostpath',
          60,
          'The minimum ActiveDeadlineSeconds to use for a HostPath Recycler pod. This is for development and testing only and will not work in a multi-node cluster.',
        ),
        int32(
          'pv-recycler-minimum-timeout-nfs',
          300,
          'The minimum ActiveDeadlineSeconds to use for an NFS Recycler pod',
        ),
        flag({
          name: 'pv-recycler-pod-template-filepath-hostpath',
          type: 'string',
          help: 'The file path to a pod definition used as a template for HostPath persistent volume recycling. This is for development and testing only and will not work in a multi-node cluster.',
        }),
        flag({
          name: 'pv-recycler-pod-template-filepath-nfs',
          type: 'string',
          help: 'The file path to a pod definition used as a template for NFS persistent volume recycling',
        }),
        int32(
          'pv-recycler-timeout-increment-hostpath',
          30,
          'the increment of time added per Gi to ActiveDeadlineSeconds for a HostPath scrubber pod. This is for development and testing only and will not work in a multi-node cluster.',
        ),
        duration(
          'pvclaimbinder-sync-period',
          15_000,
          'The period for syncing persistent volumes and persistent volume claims',
        ),
      ],
    },
    {
      name: 'Podgc controller',
      flags: [
        int32(
          'terminated-pod-gc-threshold',
          12500,
          'Number of terminated pods that can exist before the terminated pod garbage collector starts deleting terminated pods. If <= 0, the terminated pod garbage collector is disabled.',
        ),
      ],
    },
    {
      name: 'Replicaset controller',
      flags: [
        int32(
          'concurrent-replicaset-syncs',
          5,
          'The number of replica sets that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load',
        ),
      ],
    },
    {
      name: 'Replicationcontroller',
      flags: [
        int32(
          'concurrent_rc_syncs',
          5,
          'The number of replication controllers that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load',
        ),
      ],
    },
    {
      name: 'Resourcequota controller',
      flags: [
        int32(
          'concurrent-resource-quota-syncs',
          5,
          'The number of resource quotas that are allowed to sync concurrently. Larger number = more responsive quota management, but more CPU (and network) load',
        ),
        duration(
          'resource-quota-sync-period',
          5 * MINUTE,
          'The period for syncing quota usage status in the system',
        ),
      ],
    },
    {
      name: 'Serviceaccount controller',
      flags: [
        int32(
          'concurrent-serviceaccount-token-syncs',
          5,
          'The number of service account token objects that are allowed to sync concurrently. Larger number = more responsive token generation, but more CPU (and network) load',
        ),
        flag({
          name: 'root-ca-file',
          type: 'string',
          help: "If set, this root certificate authority will be included in service account's token secret. This must be a valid PEM-encoded CA bundle.",
        }),
        flag({
          name: 'service-account-private-key-file',
          type: 'string',
          help: 'Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account tokens.',
        }),
      ],
    },
    {
      name: 'Statefulset controller',
      flags: [
        int32(
          'concurrent-statefulset-syncs',
          5,
          'The number of statefulset objects that are allowed to sync concurrently. Larger number = more responsive statefulsets, but more CPU (and network) load',
        ),
      ],
    },
    {
      name: 'Ttl-after-finished controller',
      flags: [
        int32(
          'concurrent-ttl-after-finished-syncs',
          5,
          'The number of TTL-after-finished controller workers that are allowed to sync concurrently.',
        ),
      ],
    },
  ];
}

/** The cloud controller manager's own flags. */
export function cloudControllerManagerOwnFlags(): FlagSpec[] {
  return [
    flag({
      name: 'cloud-provider-x-lb-src-cidrs',
      type: 'cidrList',
      default: ['130.211.0.0/22', '209.85.152.0/22', '209.85.204.0/22', '35.191.0.0/16'],
      help: 'CIDRs opened in the cloud provider firewall for load balancer traffic proxy and health checks',
    }),
    duration(
      'node-status-update-frequency',
      5 * MINUTE,
      "Specifies how often the controller updates nodes' status.",
    ),
  ];
}
