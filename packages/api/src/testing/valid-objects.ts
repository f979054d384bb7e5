/**
 * A rich, valid object of every stored kind: many fields set, of every wire shape (int32 and int64,
 * zero numbers and false booleans, quantities, ints-or-strings in both forms, times and micro-times,
 * bytes, maps of lists, raw extensions, fields inlined into embedded messages), each one accepted by the
 * apiserver's validation as it stands, so tests can send it through the server and check that every
 * field survives. Values are written in their canonical form (quantities, times), as the server returns
 * them. Server-set fields (uid, resourceVersion, status on create) are left out.
 */
type Json = Record<string, unknown>;

/** Where the object goes; namespaced kinds get the namespace, every kind the name. */
export interface FixtureTarget {
  name: string;
  namespace: string;
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** An Ed25519 certificate request (CN=system:node:n2, O=system:nodes). */
const csrPEM = [
  '-----BEGIN CERTIFICATE REQUEST-----',
  'MIGvMGMCAQAwMDEXMBUGA1UEAwwOc3lzdGVtOm5vZGU6bjIxFTATBgNVBAoMDHN5',
  'c3RlbTpub2RlczAqMAUGAytlcAMhAB1Q5Qh0tsyK81tl5UCz9L/RreyvuYZhto1a',
  'zF0g+GVUoAAwBQYDK2VwA0EAx5yZbl5SgrVwPeqhgQz90BcjsKYVtQMTUFTfqwBM',
  'AcuTqp41sREzcFP5rR75lI0R5A7DJnNlZ2FeuqJiobtLAA==',
  '-----END CERTIFICATE REQUEST-----',
  '',
].join('\n');

/** A container with most of its fields set, probes of every handler and a security context. */
export function richContainer(name: string): Json {
  return {
    name,
    image: 'nginx:1.25',
    command: ['nginx'],
    args: ['-g', 'daemon off;'],
    workingDir: '/srv',
    ports: [
      { name: 'http', containerPort: 80, protocol: 'TCP' },
      { name: 'dns', containerPort: 53, protocol: 'UDP', hostPort: 5353, hostIP: '127.0.0.1' },
    ],
    envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'cfg', optional: true } }],
    env: [
      { name: 'MODE', value: 'prod' },
      { name: 'EMPTY', value: '' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      {
        name: 'CPU_LIMIT',
        valueFrom: { resourceFieldRef: { containerName: name, resource: 'limits.cpu', divisor: '1m' } },
      },
      { name: 'KEY', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k', optional: false } } },
      { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
    ],
    resources: {
      limits: { cpu: '500m', memory: '128Mi' },
      requests: { cpu: '250m', memory: '64Mi' },
    },
    volumeMounts: [
      { name: 'data', mountPath: '/data', subPath: 'web' },
      { name: 'cfg', mountPath: '/etc/cfg', readOnly: true },
    ],
    livenessProbe: {
      httpGet: {
        path: '/healthz',
        port: 'http',
        scheme: 'HTTP',
        httpHeaders: [{ name: 'X-Probe', value: 'liveness' }],
      },
      initialDelaySeconds: 5,
      timeoutSeconds: 2,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    },
    readinessProbe: {
      tcpSocket: { port: 80 },
      periodSeconds: 5,
      timeoutSeconds: 1,
      successThreshold: 2,
      failureThreshold: 3,
    },
    startupProbe: {
      exec: { command: ['cat', '/tmp/ready'] },
      periodSeconds: 10,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 30,
    },
    lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'FallbackToLogsOnError',
    imagePullPolicy: 'IfNotPresent',
    securityContext: {
      capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
      privileged: false,
      runAsUser: 1000,
      runAsGroup: 0,
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    },
    stdin: true,
    tty: true,
  };
}

/** A pod spec with volumes of several sources, scheduling constraints and pod-level settings. */
export function richPodSpec(labels: Record<string, string>): Json {
  return {
    volumes: [
      { name: 'data', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
      { name: 'scratch', emptyDir: {} },
      {
        name: 'cfg',
        configMap: { name: 'cfg', items: [{ key: 'k', path: 'k.txt', mode: 256 }], defaultMode: 420 },
      },
      { name: 'creds', secret: { secretName: 'creds', defaultMode: 256, optional: true } },
      { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
      { name: 'claim', persistentVolumeClaim: { claimName: 'claim', readOnly: true } },
      {
        name: 'podinfo',
        downwardAPI: {
          items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }],
        },
      },
      {
        name: 'token',
        projected: {
          sources: [{ serviceAccountToken: { audience: 'api', expirationSeconds: 3600, path: 'token' } }],
          defaultMode: 420,
        },
      },
    ],
    initContainers: [
      {
        name: 'init',
        image: 'busybox:1.36',
        command: ['sh', '-c', 'true'],
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      },
    ],
    containers: [richContainer('web')],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 0,
    dnsPolicy: 'ClusterFirst',
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    serviceAccountName: 'default',
    automountServiceAccountToken: false,
    securityContext: {
      runAsUser: 1000,
      runAsGroup: 3000,
      runAsNonRoot: true,
      supplementalGroups: [4000],
      fsGroup: 2000,
      sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }],
    },
    hostname: 'web-0',
    subdomain: 'web',
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 10, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } },
        ],
      },
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: {
              labelSelector: { matchLabels: labels },
              topologyKey: 'kubernetes.io/hostname',
            },
          },
        ],
      },
    },
    schedulerName: 'default-scheduler',
    tolerations: [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
    ],
    hostAliases: [{ ip: '10.0.0.1', hostnames: ['db.local', 'cache.local'] }],
    dnsConfig: {
      nameservers: ['1.1.1.1'],
      searches: ['svc.local'],
      options: [{ name: 'ndots', value: '2' }],
    },
    readinessGates: [{ conditionType: 'example.com/ready' }],
    enableServiceLinks: false,
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: 'zone',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: labels },
      },
    ],
  };
}

function template(labels: Record<string, string>, restartPolicy = 'Always'): Json {
  return {
    metadata: { labels, annotations: { 'example.com/template': 'yes' } },
    spec: { ...richPodSpec(labels), restartPolicy },
  };
}

const fixtures: Record<string, (t: FixtureTarget, version: string) => Json> = {
  '/ConfigMap': () => ({
    data: { k: 'v', 'multi.txt': 'line 1\nline 2\n', empty: '' },
    binaryData: { bin: b64('\u0000\u0001binary') },
    immutable: false,
  }),
  '/Secret': () => ({
    type: 'Opaque',
    data: { password: b64('s3cr3t'), empty: '' },
    immutable: false,
  }),
  '/Pod': () => ({
    spec: { ...richPodSpec({ app: 'web' }), activeDeadlineSeconds: 3600, nodeName: 'node-1', priority: 0 },
  }),
  '/PodTemplate': () => ({ template: template({ app: 'tmpl' }) }),
  '/ReplicationController': () => ({
    spec: { replicas: 2, minReadySeconds: 5, selector: { app: 'rc' }, template: template({ app: 'rc' }) },
  }),
  '/Namespace': () => ({ spec: { finalizers: ['kubernetes'] } }),
  '/Node': (t) => ({
    spec: {
      podCIDR: '10.244.1.0/24',
      podCIDRs: ['10.244.1.0/24'],
      providerID: `orch://${t.name}`,
      unschedulable: true,
      taints: [
        { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-11-22T21:00:00Z' },
      ],
    },
  }),
  '/Service': () => ({
    spec: {
      type: 'NodePort',
      selector: { app: 'web' },
      ports: [
        { name: 'http', protocol: 'TCP', port: 80, targetPort: 'http', nodePort: 30080 },
        { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353 },
      ],
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } },
      externalIPs: ['192.0.2.10'],
      externalTrafficPolicy: 'Local',
      publishNotReadyAddresses: true,
    },
  }),
  '/Endpoints': (t) => ({
    subsets: [
      {
        addresses: [
          {
            ip: '10.244.0.5',
            hostname: 'web-0',
            nodeName: 'node-1',
            targetRef: { kind: 'Pod', namespace: t.namespace, name: 'web-0', uid: 'uid-web-0' },
          },
        ],
        notReadyAddresses: [{ ip: '10.244.0.6' }],
        ports: [
          { name: 'http', port: 80, protocol: 'TCP', appProtocol: 'http' },
          { name: 'dns', port: 53, protocol: 'UDP' },
        ],
      },
    ],
  }),
  '/ServiceAccount': () => ({
    secrets: [{ name: 'sa-token' }],
    imagePullSecrets: [{ name: 'regcred' }],
    automountServiceAccountToken: false,
  }),
  '/Event': (t) => ({
    involvedObject: {
      kind: 'Pod',
      namespace: t.namespace,
      name: 'web-0',
      uid: 'uid-web-0',
      apiVersion: 'v1',
      resourceVersion: '12',
      fieldPath: 'spec.containers{web}',
    },
    reason: 'Started',
    message: 'Started container web',
    source: { component: 'node-agent', host: 'node-1' },
    firstTimestamp: '2026-11-22T21:00:00Z',
    lastTimestamp: '2026-11-22T21:05:00Z',
    count: 3,
    type: 'Normal',
    reportingComponent: 'node-agent',
    reportingInstance: 'node-1',
  }),
  '/ResourceQuota': () => ({
    spec: { hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi' }, scopes: ['NotTerminating'] },
  }),
  '/LimitRange': () => ({
    spec: {
      limits: [
        {
          type: 'Container',
          max: { cpu: '2' },
          min: { cpu: '100m' },
          default: { cpu: '500m' },
          defaultRequest: { cpu: '250m' },
          maxLimitRequestRatio: { cpu: '10' },
        },
      ],
    },
  }),
  '/PersistentVolume': (t) => ({
    spec: {
      capacity: { storage: '10Gi' },
      hostPath: { path: '/mnt/data', type: 'DirectoryOrCreate' },
      accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
      claimRef: {
        kind: 'PersistentVolumeClaim',
        namespace: t.namespace || 'default',
        name: 'claim',
        apiVersion: 'v1',
      },
      persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: 'standard',
      mountOptions: ['hard'],
      volumeMode: 'Filesystem',
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] },
          ],
        },
      },
    },
  }),
  '/PersistentVolumeClaim': () => ({
    spec: {
      accessModes: ['ReadWriteOnce'],
      selector: { matchLabels: { tier: 'db' } },
      resources: { requests: { storage: '1Gi' }, limits: { storage: '2Gi' } },
      storageClassName: 'standard',
      volumeMode: 'Filesystem',
    },
  }),
  'apps/Deployment': () => ({
    spec: {
      replicas: 0,
      selector: {
        matchLabels: { app: 'deploy' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }],
      },
      template: template({ app: 'deploy', tier: 'front' }),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '50%' } },
      minReadySeconds: 3,
      revisionHistoryLimit: 5,
      paused: true,
      progressDeadlineSeconds: 300,
    },
  }),
  'apps/ReplicaSet': () => ({
    spec: {
      replicas: 3,
      minReadySeconds: 5,
      selector: { matchLabels: { app: 'rs' } },
      template: template({ app: 'rs' }),
    },
  }),
  'apps/DaemonSet': () => ({
    spec: {
      selector: { matchLabels: { app: 'ds' } },
      template: template({ app: 'ds' }),
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      minReadySeconds: 2,
      revisionHistoryLimit: 4,
    },
  }),
  'apps/StatefulSet': () => ({
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'sts' } },
      template: template({ app: 'sts' }),
      volumeClaimTemplates: [
        {
          metadata: { name: 'data', labels: { app: 'sts' } },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      serviceName: 'web',
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
      revisionHistoryLimit: 3,
    },
  }),
  'apps/ControllerRevision': () => ({
    data: { spec: { template: { metadata: { labels: { app: 'ds' } } } }, $patch: 'replace' },
    revision: 5_000_000_000,
  }),
  'batch/Job': () => ({
    spec: {
      parallelism: 2,
      completions: 4,
      activeDeadlineSeconds: 600,
      backoffLimit: 3,
      ttlSecondsAfterFinished: 100,
      template: {
        ...template({ app: 'job' }, 'Never'),
        spec: { ...richPodSpec({ app: 'job' }), restartPolicy: 'Never', activeDeadlineSeconds: 300 },
      },
    },
  }),
  'batch/CronJob': () => ({
    spec: {
      schedule: '*/5 * * * *',
      startingDeadlineSeconds: 120,
      concurrencyPolicy: 'Forbid',
      suspend: false,
      successfulJobsHistoryLimit: 2,
      failedJobsHistoryLimit: 1,
      jobTemplate: {
        metadata: { labels: { app: 'cron' } },
        spec: { backoffLimit: 1, template: template({ app: 'cron' }, 'OnFailure') },
      },
    },
  }),
  'autoscaling/HorizontalPodAutoscaler': () => ({
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 2,
      maxReplicas: 10,
      targetCPUUtilizationPercentage: 70,
    },
  }),
  'coordination.k8s.io/Lease': () => ({
    spec: {
      holderIdentity: 'node-1',
      leaseDurationSeconds: 40,
      acquireTime: '2026-11-22T21:00:00.123456Z',
      renewTime: '2026-11-22T21:00:30.000001Z',
      leaseTransitions: 0,
    },
  }),
  'discovery.k8s.io/EndpointSlice': (t) => ({
    addressType: 'IPv4',
    endpoints: [
      {
        addresses: ['10.244.0.5'],
        conditions: { ready: true },
        hostname: 'web-0',
        targetRef: { kind: 'Pod', namespace: t.namespace, name: 'web-0' },
        topology: { 'kubernetes.io/hostname': 'node-1' },
      },
      { addresses: ['10.244.0.6'], conditions: { ready: false } },
    ],
    ports: [
      { name: 'http', protocol: 'TCP', port: 80, appProtocol: 'http' },
      { name: 'dns', protocol: 'UDP', port: 53 },
    ],
  }),
  'events.k8s.io/Event': (t) => ({
    eventTime: '2026-11-22T21:00:00.123456Z',
    series: { count: 2, lastObservedTime: '2026-11-22T21:01:00.654321Z' },
    reportingController: 'example.com/controller',
    reportingInstance: 'controller-1',
    action: 'Scheduled',
    reason: 'Scheduled',
    regarding: { kind: 'Pod', namespace: t.namespace, name: 'web-0', apiVersion: 'v1' },
    related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' },
    note: 'assigned web-0 to node-1',
    type: 'Normal',
  }),
  'networking.k8s.io/Ingress': () => ({
    spec: {
      ingressClassName: 'nginx',
      defaultBackend: { resource: { apiGroup: 'example.com', kind: 'StorageBucket', name: 'static' } },
      tls: [{ hosts: ['www.example.com', '*.example.com'], secretName: 'example-tls' }],
      rules: [
        {
          host: 'www.example.com',
          http: {
            paths: [
              { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
              {
                path: '/api',
                pathType: 'Exact',
                backend: { service: { name: 'api', port: { name: 'http' } } },
              },
            ],
          },
        },
        {
          http: {
            paths: [
              {
                pathType: 'ImplementationSpecific',
                backend: { service: { name: 'web', port: { number: 8080 } } },
              },
            ],
          },
        },
      ],
    },
  }),
  'networking.k8s.io/IngressClass': () => ({
    spec: {
      controller: 'example.com/ingress-controller',
      parameters: {
        apiGroup: 'example.com',
        kind: 'IngressParameters',
        name: 'external',
        scope: 'Namespace',
        namespace: 'ingress',
      },
    },
  }),
  'networking.k8s.io/NetworkPolicy': () => ({
    spec: {
      podSelector: { matchLabels: { app: 'db' } },
      ingress: [
        {
          from: [
            {
              podSelector: { matchLabels: { app: 'web' } },
              namespaceSelector: { matchLabels: { team: 'a' } },
            },
            { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } },
          ],
          ports: [
            { protocol: 'TCP', port: 5432 },
            { protocol: 'TCP', port: 'metrics' },
            { protocol: 'UDP', port: 30000, endPort: 30100 },
          ],
        },
      ],
      egress: [{ to: [{ ipBlock: { cidr: '2001:db8::/32' } }] }],
      policyTypes: ['Ingress', 'Egress'],
    },
  }),
  'policy/PodDisruptionBudget': () => ({
    spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } },
  }),
  'scheduling.k8s.io/PriorityClass': () => ({
    value: 1000,
    globalDefault: false,
    description: 'important workloads',
    preemptionPolicy: 'Never',
  }),
  'rbac.authorization.k8s.io/Role': () => ({
    rules: [
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'], resourceNames: ['web-0'] },
      { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: ['*'] },
    ],
  }),
  'rbac.authorization.k8s.io/ClusterRole': () => ({
    rules: [
      { nonResourceURLs: ['/healthz', '/version'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'watch'] },
    ],
  }),
  'rbac.authorization.k8s.io/RoleBinding': (t) => ({
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    subjects: [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' },
      { kind: 'ServiceAccount', name: 'default', namespace: t.namespace },
    ],
  }),
  'rbac.authorization.k8s.io/ClusterRoleBinding': () => ({
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }],
  }),
  'certificates.k8s.io/CertificateSigningRequest': () => ({
    spec: {
      request: b64(csrPEM),
      signerName: 'kubernetes.io/kube-apiserver-client',
      expirationSeconds: 3600,
      usages: ['digital signature', 'key encipherment', 'client auth'],
    },
  }),
  'storage.k8s.io/StorageClass': () => ({
    provisioner: 'example.com/csi',
    parameters: { type: 'ssd', replication: '3' },
    reclaimPolicy: 'Retain',
    mountOptions: ['debug'],
    allowVolumeExpansion: true,
    volumeBindingMode: 'WaitForFirstConsumer',
    allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a', 'b'] }] }],
  }),
  'storage.k8s.io/VolumeAttachment': () => ({
    spec: { attacher: 'example.com/csi', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' },
  }),
  'storage.k8s.io/CSINode': (t) => ({
    spec: {
      drivers: [
        { name: 'csi.example.com', nodeID: t.name, topologyKeys: ['zone'], allocatable: { count: 10 } },
      ],
    },
  }),
};

/**
 * The valid object of a stored kind (`group` '' for the core group), with apiVersion, kind and
 * metadata (labels and annotations included); undefined for kinds without one (virtual kinds).
 */
export function validObjectOf(
  group: string,
  version: string,
  kind: string,
  target: FixtureTarget,
): Json | undefined {
  const fixture = fixtures[`${group}/${kind}`];
  if (!fixture) return undefined;
  const metadata: Json = {
    name: target.name,
    labels: { app: 'web', 'example.com/empty': '' },
    annotations: {
      'example.com/note': 'rich object',
      'example.com/json': '{"a":[1,2]}',
      'example.com/unicode': 'héllo wörld ✓ 日本',
    },
    ownerReferences: [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name: 'owner',
        uid: '6b1d4c1e-0f3a-4f5e-9a55-2d3c4b5a6978',
        controller: false,
        blockOwnerDeletion: false,
      },
    ],
  };
  if (target.namespace) metadata.namespace = target.namespace;
  if (group === 'discovery.k8s.io') (metadata.labels as Json)['kubernetes.io/service-name'] = 'web';
  return {
    apiVersion: group ? `${group}/${version}` : version,
    kind,
    metadata,
    ...fixture(target, version),
  };
}
