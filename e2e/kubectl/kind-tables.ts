/**
 * What `kubectl get` shows for every listable kind, as Kubernetes' server-side printers
 * (pkg/printers/internalversion/printers.go, 1.29) define it: the default header, the extra
 * columns of `-o wide`, and the cells of sample objects. Kinds without a printer of their own get the
 * apiserver's default table (Name, Created At).
 */

/** A cell: its exact text, or a pattern for values the server chooses (ages, allocated IPs, ports). */
export type Cell = string | RegExp;

export interface KindTable {
  /** The resource argument for kubectl (plural, with the group when it is not the core group). */
  resource: string;
  /** Objects to create, as a multi-document YAML stream (namespaced ones land in the test namespace). */
  manifests: string;
  /** Status to merge-patch into the status subresource after creation, by object name. */
  status?: Record<string, unknown>;
  /** Header of `kubectl get`. */
  columns: readonly string[];
  /** Columns `-o wide` adds after the default ones (in Kubernetes' column order, see `wideOrder`). */
  wide: readonly string[];
  /**
   * The full `-o wide` header when the wide columns are interleaved with the default ones (events);
   * the default header followed by `wide` otherwise.
   */
  wideOrder?: readonly string[];
  /** Expected cells of `kubectl get` for each object, by name. */
  rows: Record<string, readonly Cell[]>;
  /** Expected cells of `kubectl get -o wide`, by name (the full row, in wideOrder). */
  wideRows?: Record<string, readonly Cell[]>;
}

/** A fresh object's age: seconds, as duration.HumanDuration prints it below two minutes. */
export const age = /^\d+s$/;
/** Created At of the default table: an RFC 3339 timestamp. */
export const createdAt = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const ipv4 = /^\d+\.\d+\.\d+\.\d+$/;

const containers = `containers: [{name: c, image: "busybox:1.36"}]`;
const tenDaysAgo = new Date(Date.now() - 10 * 24 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
const twelveDaysAgo = new Date(Date.now() - 12 * 24 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
const micro = (t: string) => t.replace(/Z$/, '.000000Z');

/** kubectl prints core/v1 and events.k8s.io/v1 Events with the same columns. */
const eventColumns: Pick<KindTable, 'columns' | 'wide' | 'wideOrder'> = {
  columns: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
  wide: ['SUBOBJECT', 'SOURCE', 'FIRST SEEN', 'COUNT', 'NAME'],
  wideOrder: [
    'LAST SEEN',
    'TYPE',
    'REASON',
    'OBJECT',
    'SUBOBJECT',
    'SOURCE',
    'MESSAGE',
    'FIRST SEEN',
    'COUNT',
    'NAME',
  ],
};

/** The default table of kinds without a printer. */
const defaultTable = (resource: string, name: string, manifests: string): KindTable => ({
  resource,
  manifests,
  columns: ['NAME', 'CREATED AT'],
  wide: [],
  rows: { [name]: [name, createdAt] },
});

/**
 * Every kind that serves list, keyed by plural and group, with a CertificateSigningRequest PEM supplied
 * by the caller (it must parse).
 */
export function kindTables(csrPEM: string): Record<string, KindTable> {
  return {
    configmaps: {
      resource: 'configmaps',
      manifests: `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {a: "1", b: "2"}
binaryData: {c: "AA=="}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: empty}
`,
      columns: ['NAME', 'DATA', 'AGE'],
      wide: [],
      rows: { cfg: ['cfg', '3', age], empty: ['empty', '0', age] },
    },
    pods: {
      resource: 'pods',
      manifests: `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  nodeName: n1
  readinessGates: [{conditionType: example.com/gate}]
  containers: [{name: c, image: "busybox:1.36"}, {name: d, image: "busybox:1.36"}]
---
apiVersion: v1
kind: Pod
metadata: {name: bare}
spec: {${containers}}
---
apiVersion: v1
kind: Pod
metadata: {name: init}
spec:
  initContainers: [{name: i1, image: "busybox:1.36"}, {name: i2, image: "busybox:1.36"}]
  ${containers}
`,
      status: {
        init: {
          initContainerStatuses: [
            {
              name: 'i1',
              ready: false,
              restartCount: 1,
              image: 'busybox:1.36',
              imageID: '',
              state: { terminated: { exitCode: 0 } },
            },
            {
              name: 'i2',
              ready: false,
              restartCount: 2,
              image: 'busybox:1.36',
              imageID: '',
              state: { running: {} },
            },
          ],
        },
        web: {
          phase: 'Running',
          podIP: '10.1.0.7',
          podIPs: [{ ip: '10.1.0.7' }],
          nominatedNodeName: 'n2',
          conditions: [
            { type: 'Ready', status: 'False' },
            { type: 'example.com/gate', status: 'True' },
          ],
          containerStatuses: [
            {
              name: 'c',
              ready: true,
              restartCount: 2,
              image: 'busybox:1.36',
              imageID: '',
              state: { running: { startedAt: tenDaysAgo } },
            },
            {
              name: 'd',
              ready: false,
              restartCount: 1,
              image: 'busybox:1.36',
              imageID: '',
              state: { waiting: { reason: 'CrashLoopBackOff' } },
            },
          ],
        },
      },
      columns: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      wide: ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
      rows: {
        web: ['web', '1/2', 'CrashLoopBackOff', '3', age],
        bare: ['bare', '0/1', 'Pending', '0', age],
        // the first init container that has not succeeded decides; restarts count init containers
        init: ['init', '0/1', 'Init:1/2', '3', age],
      },
      wideRows: {
        web: ['web', '1/2', 'CrashLoopBackOff', '3', age, '10.1.0.7', 'n1', 'n2', '1/1'],
        bare: ['bare', '0/1', 'Pending', '0', age, '<none>', '<none>', '<none>', '<none>'],
      },
    },
    podtemplates: {
      resource: 'podtemplates',
      manifests: `apiVersion: v1
kind: PodTemplate
metadata: {name: tpl}
template:
  metadata: {labels: {app: tpl, tier: web}}
  spec: {containers: [{name: c, image: "busybox:1.36"}, {name: d, image: "nginx:1.25"}]}
`,
      columns: ['NAME', 'CONTAINERS', 'IMAGES', 'POD LABELS'],
      wide: [],
      rows: { tpl: ['tpl', 'c,d', 'busybox:1.36,nginx:1.25', 'app=tpl,tier=web'] },
    },
    replicationcontrollers: {
      resource: 'replicationcontrollers',
      manifests: `apiVersion: v1
kind: ReplicationController
metadata: {name: rc}
spec:
  replicas: 2
  selector: {app: rc}
  template:
    metadata: {labels: {app: rc}}
    spec: {${containers}}
`,
      status: { rc: { replicas: 2, readyReplicas: 1 } },
      columns: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
      wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
      rows: { rc: ['rc', '2', '2', '1', age] },
      wideRows: { rc: ['rc', '2', '2', '1', age, 'c', 'busybox:1.36', 'app=rc'] },
    },
    namespaces: {
      resource: 'namespaces',
      manifests: `apiVersion: v1
kind: Namespace
metadata: {name: kc-other}
`,
      columns: ['NAME', 'STATUS', 'AGE'],
      wide: [],
      rows: { 'kc-other': ['kc-other', 'Active', age] },
    },
    nodes: {
      resource: 'nodes',
      manifests: `apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {node-role.kubernetes.io/control-plane: "", node-role.kubernetes.io/worker: ""}
spec: {unschedulable: true}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
`,
      status: {
        n1: {
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              lastHeartbeatTime: tenDaysAgo,
              lastTransitionTime: tenDaysAgo,
            },
          ],
          addresses: [
            { type: 'InternalIP', address: '10.0.0.5' },
            { type: 'ExternalIP', address: '203.0.113.5' },
            { type: 'Hostname', address: 'n1' },
          ],
          nodeInfo: {
            machineID: 'm',
            systemUUID: 's',
            bootID: 'b',
            kernelVersion: '6.1.0-18-amd64',
            osImage: 'Debian GNU/Linux 12 (bookworm)',
            containerRuntimeVersion: 'containerd://1.7.13',
            kubeletVersion: 'v1.29.0',
            kubeProxyVersion: 'v1.29.0',
            operatingSystem: 'linux',
            architecture: 'amd64',
          },
        },
      },
      columns: ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
      wide: ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'],
      rows: {
        n1: ['n1', 'Ready,SchedulingDisabled', 'control-plane,worker', age, 'v1.29.0'],
        n2: ['n2', 'Unknown', '<none>', age, ''],
      },
      wideRows: {
        n1: [
          'n1',
          'Ready,SchedulingDisabled',
          'control-plane,worker',
          age,
          'v1.29.0',
          '10.0.0.5',
          '203.0.113.5',
          'Debian GNU/Linux 12 (bookworm)',
          '6.1.0-18-amd64',
          'containerd://1.7.13',
        ],
        n2: ['n2', 'Unknown', '<none>', age, '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
      },
    },
    services: {
      resource: 'services',
      manifests: `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80}, {name: https, port: 443, protocol: TCP}]
---
apiVersion: v1
kind: Service
metadata: {name: lb}
spec:
  type: LoadBalancer
  selector: {app: lb}
  ports: [{port: 53, protocol: UDP}]
---
apiVersion: v1
kind: Service
metadata: {name: headless}
spec: {clusterIP: None}
---
apiVersion: v1
kind: Service
metadata: {name: ext}
spec: {type: ExternalName, externalName: db.example.com}
---
apiVersion: v1
kind: Service
metadata: {name: xip}
spec:
  type: NodePort
  externalIPs: [192.0.2.4, 192.0.2.8]
  ports: [{port: 80, targetPort: 8080, nodePort: 30080}]
`,
      columns: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
      wide: ['SELECTOR'],
      rows: {
        web: ['web', 'ClusterIP', ipv4, '<none>', '80/TCP,443/TCP', age],
        lb: ['lb', 'LoadBalancer', ipv4, '<pending>', /^53:\d+\/UDP$/, age],
        headless: ['headless', 'ClusterIP', 'None', '<none>', '<none>', age],
        ext: ['ext', 'ExternalName', '<none>', 'db.example.com', '<none>', age],
        xip: ['xip', 'NodePort', ipv4, '192.0.2.4,192.0.2.8', '80:30080/TCP', age],
      },
      wideRows: {
        web: ['web', 'ClusterIP', ipv4, '<none>', '80/TCP,443/TCP', age, 'app=web'],
        headless: ['headless', 'ClusterIP', 'None', '<none>', '<none>', age, '<none>'],
      },
    },
    endpoints: {
      resource: 'endpoints',
      manifests: `apiVersion: v1
kind: Endpoints
metadata: {name: ep}
subsets:
- addresses: [{ip: 10.1.0.1}, {ip: 10.1.0.2}]
  ports: [{name: http, port: 8080}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: none}
---
apiVersion: v1
kind: Endpoints
metadata: {name: many}
subsets:
- addresses: [{ip: 10.1.0.1}, {ip: 10.1.0.2}]
  ports: [{name: a, port: 80}, {name: b, port: 81}]
- addresses: [{ip: "fd00::1"}]
  ports: [{port: 53, protocol: UDP}]
`,
      columns: ['NAME', 'ENDPOINTS', 'AGE'],
      wide: [],
      rows: {
        ep: ['ep', '10.1.0.1:8080,10.1.0.2:8080', age],
        none: ['none', '<none>', age],
        many: ['many', '10.1.0.1:80,10.1.0.2:80,10.1.0.1:81 + 2 more...', age],
      },
    },
    secrets: {
      resource: 'secrets',
      manifests: `apiVersion: v1
kind: Secret
metadata: {name: sec}
stringData: {user: admin, password: hunter2}
---
apiVersion: v1
kind: Secret
metadata: {name: tls}
type: kubernetes.io/tls
data: {tls.crt: "", tls.key: ""}
`,
      columns: ['NAME', 'TYPE', 'DATA', 'AGE'],
      wide: [],
      rows: { sec: ['sec', 'Opaque', '2', age], tls: ['tls', 'kubernetes.io/tls', '2', age] },
    },
    serviceaccounts: {
      resource: 'serviceaccounts',
      manifests: `apiVersion: v1
kind: ServiceAccount
metadata: {name: robot}
secrets: [{name: robot-token}]
`,
      columns: ['NAME', 'SECRETS', 'AGE'],
      wide: [],
      rows: { robot: ['robot', '1', age] },
    },
    events: {
      resource: 'events',
      manifests: `apiVersion: v1
kind: Event
metadata: {name: web.1}
involvedObject: {kind: Pod, name: web, namespace: kc, fieldPath: "spec.containers{c}"}
reason: Started
message: "Started container c  "
type: Normal
source: {component: kubelet, host: n1}
count: 4
firstTimestamp: "${twelveDaysAgo}"
lastTimestamp: "${tenDaysAgo}"
`,
      ...eventColumns,
      rows: { 'web.1': ['10d', 'Normal', 'Started', 'pod/web', 'Started container c'] },
      wideRows: {
        'web.1': [
          '10d',
          'Normal',
          'Started',
          'pod/web',
          'spec.containers{c}',
          'kubelet, n1',
          'Started container c',
          '12d',
          '4',
          'web.1',
        ],
      },
    },
    resourcequotas: {
      resource: 'resourcequotas',
      manifests: `apiVersion: v1
kind: ResourceQuota
metadata: {name: rq}
spec:
  hard: {pods: "10", requests.cpu: "2", limits.memory: 1Gi}
`,
      status: {
        rq: {
          hard: { pods: '10', 'requests.cpu': '2', 'limits.memory': '1Gi' },
          used: { pods: '3', 'requests.cpu': '500m' },
        },
      },
      columns: ['NAME', 'AGE', 'REQUEST', 'LIMIT'],
      wide: [],
      rows: { rq: ['rq', age, 'pods: 3/10, requests.cpu: 500m/2', 'limits.memory: 0/1Gi'] },
    },
    limitranges: defaultTable(
      'limitranges',
      'limits',
      `apiVersion: v1
kind: LimitRange
metadata: {name: limits}
spec:
  limits: [{type: Container, default: {cpu: 500m}}]
`,
    ),
    persistentvolumes: {
      resource: 'persistentvolumes',
      manifests: `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  storageClassName: fast
  hostPath: {path: /tmp/pv1}
  claimRef: {namespace: kc, name: data}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv2}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  persistentVolumeReclaimPolicy: Delete
  volumeMode: Block
  hostPath: {path: /tmp/pv2}
`,
      status: { pv1: { phase: 'Bound' }, pv2: { phase: 'Failed', reason: 'Broken' } },
      columns: [
        'NAME',
        'CAPACITY',
        'ACCESS MODES',
        'RECLAIM POLICY',
        'STATUS',
        'CLAIM',
        'STORAGECLASS',
        'VOLUMEATTRIBUTESCLASS',
        'REASON',
        'AGE',
      ],
      wide: ['VOLUMEMODE'],
      rows: {
        pv1: ['pv1', '1Gi', 'RWO,ROX', 'Retain', 'Bound', 'kc/data', 'fast', '<unset>', '', age],
        pv2: ['pv2', '5Gi', 'RWX', 'Delete', 'Failed', '', '', '<unset>', 'Broken', age],
      },
      wideRows: {
        pv1: [
          'pv1',
          '1Gi',
          'RWO,ROX',
          'Retain',
          'Bound',
          'kc/data',
          'fast',
          '<unset>',
          '',
          age,
          'Filesystem',
        ],
        pv2: ['pv2', '5Gi', 'RWX', 'Delete', 'Failed', '', '', '<unset>', 'Broken', age, 'Block'],
      },
    },
    persistentvolumeclaims: {
      resource: 'persistentvolumeclaims',
      manifests: `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: fast
  volumeName: pv1
  resources: {requests: {storage: 1Gi}}
`,
      status: {
        data: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } },
      },
      columns: [
        'NAME',
        'STATUS',
        'VOLUME',
        'CAPACITY',
        'ACCESS MODES',
        'STORAGECLASS',
        'VOLUMEATTRIBUTESCLASS',
        'AGE',
      ],
      wide: ['VOLUMEMODE'],
      rows: {
        data: ['data', 'Bound', 'pv1', '1Gi', 'RWO', 'fast', '<unset>', age],
      },
      wideRows: { data: ['data', 'Bound', 'pv1', '1Gi', 'RWO', 'fast', '<unset>', age, 'Filesystem'] },
    },
    'deployments.apps': {
      resource: 'deployments.apps',
      manifests: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: "busybox:1.36"}, {name: d, image: "nginx:1.25"}]}
`,
      status: { web: { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 1 } },
      columns: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
      wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
      rows: { web: ['web', '2/3', '3', '1', age] },
      wideRows: { web: ['web', '2/3', '3', '1', age, 'c,d', 'busybox:1.36,nginx:1.25', 'app=web'] },
    },
    'replicasets.apps': {
      resource: 'replicasets.apps',
      manifests: `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  replicas: 2
  selector:
    matchLabels: {app: rs}
    matchExpressions: [{key: tier, operator: In, values: [a, b]}]
  template:
    metadata: {labels: {app: rs, tier: a}}
    spec: {${containers}}
`,
      columns: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
      wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
      rows: { rs: ['rs', '2', '0', '0', age] },
      wideRows: { rs: ['rs', '2', '0', '0', age, 'c', 'busybox:1.36', 'app=rs,tier in (a,b)'] },
    },
    'daemonsets.apps': {
      resource: 'daemonsets.apps',
      manifests: `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec: {nodeSelector: {disk: ssd}, ${containers}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: everywhere}
spec:
  selector: {matchLabels: {app: everywhere}}
  template:
    metadata: {labels: {app: everywhere}}
    spec: {${containers}}
`,
      status: {
        ds: {
          desiredNumberScheduled: 4,
          currentNumberScheduled: 3,
          numberReady: 2,
          updatedNumberScheduled: 1,
          numberAvailable: 2,
          numberMisscheduled: 0,
        },
      },
      columns: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
      wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
      rows: {
        ds: ['ds', '4', '3', '2', '1', '2', 'disk=ssd', age],
        everywhere: ['everywhere', '0', '0', '0', '0', '0', '<none>', age],
      },
      wideRows: { ds: ['ds', '4', '3', '2', '1', '2', 'disk=ssd', age, 'c', 'busybox:1.36', 'app=ds'] },
    },
    'statefulsets.apps': {
      resource: 'statefulsets.apps',
      manifests: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: sts}
spec:
  replicas: 2
  serviceName: sts
  selector: {matchLabels: {app: sts}}
  template:
    metadata: {labels: {app: sts}}
    spec: {${containers}}
`,
      columns: ['NAME', 'READY', 'AGE'],
      wide: ['CONTAINERS', 'IMAGES'],
      rows: { sts: ['sts', '0/2', age] },
      wideRows: { sts: ['sts', '0/2', age, 'c', 'busybox:1.36'] },
    },
    'controllerrevisions.apps': {
      resource: 'controllerrevisions.apps',
      manifests: `apiVersion: apps/v1
kind: ControllerRevision
metadata:
  name: sts-5d8c
  ownerReferences:
  - {apiVersion: apps/v1, kind: StatefulSet, name: sts, uid: 7d3b5a1e-8a4f-4c57-9a43-5a1f0c6d2b11, controller: true}
data: {spec: {replicas: 2}}
revision: 3
---
apiVersion: apps/v1
kind: ControllerRevision
metadata: {name: orphan}
data: {}
revision: 1
`,
      columns: ['NAME', 'CONTROLLER', 'REVISION', 'AGE'],
      wide: [],
      rows: {
        'sts-5d8c': ['sts-5d8c', 'statefulset.apps/sts', '3', age],
        orphan: ['orphan', '<none>', '1', age],
      },
    },
    'jobs.batch': {
      resource: 'jobs.batch',
      manifests: `apiVersion: batch/v1
kind: Job
metadata: {name: job}
spec:
  completions: 3
  template:
    spec: {restartPolicy: Never, ${containers}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: queue}
spec:
  parallelism: 4
  template:
    spec: {restartPolicy: Never, ${containers}}
`,
      status: {
        job: { startTime: tenDaysAgo, active: 1, succeeded: 2 },
      },
      columns: ['NAME', 'COMPLETIONS', 'DURATION', 'AGE'],
      wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
      rows: {
        job: ['job', '2/3', '10d', age],
        queue: ['queue', '0/1 of 4', '', age],
      },
      wideRows: {
        job: [
          'job',
          '2/3',
          '10d',
          age,
          'c',
          'busybox:1.36',
          /^batch\.kubernetes\.io\/controller-uid=[0-9a-f-]{36}$/,
        ],
      },
    },
    'cronjobs.batch': {
      resource: 'cronjobs.batch',
      manifests: `apiVersion: batch/v1
kind: CronJob
metadata: {name: cj}
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec: {restartPolicy: OnFailure, ${containers}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: paused}
spec:
  schedule: "@hourly"
  suspend: true
  jobTemplate:
    spec:
      template:
        spec: {restartPolicy: OnFailure, ${containers}}
`,
      status: {
        paused: {
          lastScheduleTime: tenDaysAgo,
          active: [{ kind: 'Job', namespace: 'kc', name: 'paused-1', apiVersion: 'batch/v1' }],
        },
      },
      columns: ['NAME', 'SCHEDULE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'],
      wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
      rows: {
        cj: ['cj', '*/5 * * * *', 'False', '0', '<none>', age],
        paused: ['paused', '@hourly', 'True', '1', '10d', age],
      },
      wideRows: { cj: ['cj', '*/5 * * * *', 'False', '0', '<none>', age, 'c', 'busybox:1.36', '<none>'] },
    },
    'horizontalpodautoscalers.autoscaling': {
      resource: 'horizontalpodautoscalers.autoscaling',
      manifests: `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: hpa}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  targetCPUUtilizationPercentage: 80
---
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: untargeted}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: sts}
  minReplicas: 2
  maxReplicas: 4
`,
      columns: ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'],
      wide: [],
      rows: {
        hpa: ['hpa', 'Deployment/web', '<unknown>/80%', '1', '5', '0', age],
        untargeted: ['untargeted', 'StatefulSet/sts', '<none>', '2', '4', '0', age],
      },
    },
    'leases.coordination.k8s.io': {
      resource: 'leases.coordination.k8s.io',
      manifests: `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: lock}
spec: {holderIdentity: node-1_5f2a, leaseDurationSeconds: 15}
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: free}
`,
      columns: ['NAME', 'HOLDER', 'AGE'],
      wide: [],
      rows: { lock: ['lock', 'node-1_5f2a', age], free: ['free', '', age] },
    },
    'endpointslices.discovery.k8s.io': {
      resource: 'endpointslices.discovery.k8s.io',
      manifests: `apiVersion: discovery.k8s.io/v1beta1
kind: EndpointSlice
metadata: {name: web-abc}
addressType: IPv4
endpoints:
- addresses: [10.1.0.1]
- addresses: [10.1.0.2]
- addresses: [10.1.0.3]
- addresses: [10.1.0.4, 10.1.0.5]
ports: [{name: http, port: 80, protocol: TCP}, {name: https, port: 443, protocol: TCP}]
---
apiVersion: discovery.k8s.io/v1beta1
kind: EndpointSlice
metadata: {name: empty}
addressType: IPv6
endpoints: []
`,
      columns: ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'],
      wide: [],
      rows: {
        'web-abc': ['web-abc', 'IPv4', '80,443', '10.1.0.1,10.1.0.2,10.1.0.3 + 2 more...', age],
        empty: ['empty', 'IPv6', '<unset>', '<unset>', age],
      },
    },
    'ingresses.networking.k8s.io': {
      resource: 'ingresses.networking.k8s.io',
      manifests: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  ingressClassName: nginx
  tls: [{hosts: [a.example.com], secretName: tls}]
  rules:
  - host: a.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
  - host: b.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {name: http}}}}]}
  - host: c.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
  - host: d.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: catch-all}
spec:
  defaultBackend: {service: {name: web, port: {number: 80}}}
`,
      columns: ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'],
      wide: [],
      rows: {
        web: ['web', 'nginx', 'a.example.com,b.example.com,c.example.com + 1 more...', '', '80, 443', age],
        'catch-all': ['catch-all', '<none>', '*', '', '80', age],
      },
    },
    'ingressclasses.networking.k8s.io': {
      resource: 'ingressclasses.networking.k8s.io',
      manifests: `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx}
spec: {controller: k8s.io/ingress-nginx}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: external}
spec:
  controller: example.com/lb
  parameters: {apiGroup: example.com, kind: LBParams, name: big}
`,
      columns: ['NAME', 'CONTROLLER', 'PARAMETERS', 'AGE'],
      wide: [],
      rows: {
        nginx: ['nginx', 'k8s.io/ingress-nginx', '<none>', age],
        external: ['external', 'example.com/lb', 'LBParams.example.com/big', age],
      },
    },
    'networkpolicies.networking.k8s.io': {
      resource: 'networkpolicies.networking.k8s.io',
      manifests: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: db}
spec:
  podSelector: {matchLabels: {app: db}}
  ingress: [{from: [{podSelector: {matchLabels: {app: web}}}], ports: [{port: 5432}]}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny-all}
spec: {podSelector: {}, policyTypes: [Ingress, Egress]}
`,
      columns: ['NAME', 'POD-SELECTOR', 'AGE'],
      wide: [],
      rows: { db: ['db', 'app=db', age], 'deny-all': ['deny-all', '<none>', age] },
    },
    'events.events.k8s.io': {
      resource: 'events.events.k8s.io',
      manifests: `apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: web.2}
eventTime: "${micro(tenDaysAgo)}"
regarding: {kind: Deployment, name: web, namespace: kc}
reason: ScalingReplicaSet
note: Scaled up replica set web-1 to 3
type: Normal
action: Scale
reportingController: orch-controller-manager
reportingInstance: cm-1
`,
      ...eventColumns,
      rows: {
        'web.2': ['10d', 'Normal', 'ScalingReplicaSet', 'deployment/web', 'Scaled up replica set web-1 to 3'],
      },
      wideRows: {
        'web.2': [
          '10d',
          'Normal',
          'ScalingReplicaSet',
          'deployment/web',
          '',
          // no deprecated source: the reporting controller and instance stand in
          'orch-controller-manager, cm-1',
          'Scaled up replica set web-1 to 3',
          '10d',
          '1',
          'web.2',
        ],
      },
    },
    'poddisruptionbudgets.policy': {
      resource: 'poddisruptionbudgets.policy',
      manifests: `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: pct}
spec:
  maxUnavailable: 25%
  selector: {matchLabels: {app: web}}
`,
      status: {
        pdb: { disruptionsAllowed: 2, currentHealthy: 3, desiredHealthy: 1, expectedPods: 3 },
      },
      columns: ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
      wide: [],
      rows: { pdb: ['pdb', '1', 'N/A', '2', age], pct: ['pct', 'N/A', '25%', '0', age] },
    },
    'priorityclasses.scheduling.k8s.io': {
      resource: 'priorityclasses.scheduling.k8s.io',
      manifests: `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: kc-high}
value: 1000000
description: high
`,
      columns: ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE'],
      wide: [],
      rows: { 'kc-high': ['kc-high', '1000000', 'false', age] },
    },
    'roles.rbac.authorization.k8s.io': defaultTable(
      'roles.rbac.authorization.k8s.io',
      'reader',
      `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list]}]
`,
    ),
    'clusterroles.rbac.authorization.k8s.io': defaultTable(
      'clusterroles.rbac.authorization.k8s.io',
      'kc-reader',
      `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: kc-reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list]}]
`,
    ),
    'rolebindings.rbac.authorization.k8s.io': {
      resource: 'rolebindings.rbac.authorization.k8s.io',
      manifests: `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: readers}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: alice}
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: bob}
- {kind: Group, apiGroup: rbac.authorization.k8s.io, name: devs}
- {kind: ServiceAccount, name: robot, namespace: kc}
`,
      columns: ['NAME', 'ROLE', 'AGE'],
      wide: ['USERS', 'GROUPS', 'SERVICEACCOUNTS'],
      rows: { readers: ['readers', 'Role/reader', age] },
      wideRows: { readers: ['readers', 'Role/reader', age, 'alice, bob', 'devs', 'kc/robot'] },
    },
    'clusterrolebindings.rbac.authorization.k8s.io': {
      resource: 'clusterrolebindings.rbac.authorization.k8s.io',
      manifests: `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: kc-readers}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: kc-reader}
subjects: [{kind: Group, apiGroup: rbac.authorization.k8s.io, name: "system:authenticated"}]
`,
      columns: ['NAME', 'ROLE', 'AGE'],
      wide: ['USERS', 'GROUPS', 'SERVICEACCOUNTS'],
      rows: { 'kc-readers': ['kc-readers', 'ClusterRole/kc-reader', age] },
      wideRows: {
        'kc-readers': ['kc-readers', 'ClusterRole/kc-reader', age, '', 'system:authenticated', ''],
      },
    },
    'certificatesigningrequests.certificates.k8s.io': {
      resource: 'certificatesigningrequests.certificates.k8s.io',
      manifests: `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata: {name: alice}
spec:
  request: ${Buffer.from(csrPEM).toString('base64')}
  signerName: kubernetes.io/kube-apiserver-client
  usages: [client auth]
`,
      columns: ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION'],
      wide: [],
      rows: {
        alice: ['alice', age, 'kubernetes.io/kube-apiserver-client', 'orch-admin', '<none>', 'Pending'],
      },
    },
    'storageclasses.storage.k8s.io': {
      resource: 'storageclasses.storage.k8s.io',
      manifests: `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: example.com/fast
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: slow}
provisioner: example.com/slow
reclaimPolicy: Retain
volumeBindingMode: WaitForFirstConsumer
allowVolumeExpansion: true
`,
      columns: ['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE'],
      wide: [],
      rows: {
        fast: ['fast (default)', 'example.com/fast', 'Delete', 'Immediate', 'false', age],
        slow: ['slow', 'example.com/slow', 'Retain', 'WaitForFirstConsumer', 'true', age],
      },
    },
    'volumeattachments.storage.k8s.io': {
      resource: 'volumeattachments.storage.k8s.io',
      manifests: `apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: va}
spec:
  attacher: csi.example.com
  nodeName: n1
  source: {persistentVolumeName: pv1}
`,
      status: { va: { attached: true } },
      columns: ['NAME', 'ATTACHER', 'PV', 'NODE', 'ATTACHED', 'AGE'],
      wide: [],
      rows: { va: ['va', 'csi.example.com', 'pv1', 'n1', 'true', age] },
    },
    'customresourcedefinitions.apiextensions.k8s.io': defaultTable(
      'customresourcedefinitions.apiextensions.k8s.io',
      'gadgets.kc.example.com',
      `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.kc.example.com}
spec:
  group: kc.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`,
    ),
    'csinodes.storage.k8s.io': {
      resource: 'csinodes.storage.k8s.io',
      manifests: `apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n1}
spec:
  drivers:
  - {name: csi.example.com, nodeID: n1}
  - {name: ebs.csi.example.com, nodeID: i-123}
`,
      columns: ['NAME', 'DRIVERS', 'AGE'],
      wide: [],
      rows: { n1: ['n1', '2', age] },
    },
  };
}
