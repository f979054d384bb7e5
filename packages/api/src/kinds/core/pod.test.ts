import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword } from '../../schema/fields';
import type { ColumnDeclaration } from '../../schema/kind';
import { compileKind } from '../../validation/compile-kind';
import { errorMessage, type FieldError } from '../../validation/field-error';
import { toTable } from '../../table/table-convertor';
import {
  ContainerPortSchema,
  ContainerSchema,
  defaultImagePullPolicy,
  EphemeralContainerSchema,
} from './container';
import { ContainerStatusSchema } from './container-status';
import { EnvVarSchema, ConfigMapKeySelectorSchema } from './env';
import { PodKind, POD_UPDATE_FORBIDDEN_MESSAGE, type Pod } from './pod';
import { summarizePod } from './pod-columns';
import { podFamilyKinds } from './pod-family';
import { PodAffinityTermSchema } from './affinity';
import { PodSpecSchema, PodTemplateSpecSchema, TopologySpreadConstraintSchema } from './pod-spec';
import { PodStatusSchema } from './pod-status';
import { PodTemplateKind, type PodTemplate } from './pod-template';
import { GRPCActionSchema, ProbeSchema } from './probe';
import { ReplicationControllerKind, type ReplicationController } from './replication-controller';
import { VolumeSchema } from './volume';

const PROTO_EMBEDDED_KEYWORD = OrchKeyword.protoEmbedded;

type Node = Record<string, unknown>;
const props = (s: TSchema): Record<string, Node> =>
  (s as unknown as { properties: Record<string, Node> }).properties;
const protos = (s: TSchema, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(keys.map((k) => [k, props(s)[k]?.[OrchKeyword.proto]]));
const messages = (errs: readonly FieldError[]): string[] => errs.map(errorMessage);

const pods = compileKind(PodKind);
const rcs = compileKind(ReplicationControllerKind);

function pod(spec: Record<string, unknown> = {}, extra: Partial<Pod> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.19' }], ...spec },
    ...extra,
  } as Pod;
}

/** Defaults then validates, as the API server does on create. */
function create(obj: unknown): string[] {
  pods.default(obj);
  return messages(pods.validate(obj));
}

function cells(columns: readonly ColumnDeclaration<never>[], obj: unknown, wide = true): unknown[] {
  const now = new Date('2021-01-01T00:10:00Z');
  return columns
    .filter((c) => wide || !c.priority)
    .map((c) => (c.cell as (o: unknown, n: Date) => unknown)(obj, now));
}

describe('core/v1 Pod family declarations', () => {
  it('carries Kubernetes protobuf numbers', () => {
    expect(
      protos(PodSpecSchema, [
        'volumes',
        'containers',
        'restartPolicy',
        'terminationGracePeriodSeconds',
        'dnsPolicy',
        'nodeName',
        'securityContext',
        'schedulerName',
        'initContainers',
        'tolerations',
        'enableServiceLinks',
        'topologySpreadConstraints',
        'ephemeralContainers',
        'setHostnameAsFQDN',
      ]),
    ).toEqual({
      volumes: 1,
      containers: 2,
      restartPolicy: 3,
      terminationGracePeriodSeconds: 4,
      dnsPolicy: 6,
      nodeName: 10,
      securityContext: 14,
      schedulerName: 19,
      initContainers: 20,
      tolerations: 22,
      enableServiceLinks: 30,
      topologySpreadConstraints: 33,
      ephemeralContainers: 34,
      setHostnameAsFQDN: 35,
    });
    expect(
      protos(ContainerSchema, [
        'name',
        'image',
        'command',
        'ports',
        'env',
        'resources',
        'envFrom',
        'volumeDevices',
        'startupProbe',
      ]),
    ).toEqual({
      name: 1,
      image: 2,
      command: 3,
      ports: 6,
      env: 7,
      resources: 8,
      envFrom: 19,
      volumeDevices: 21,
      startupProbe: 22,
    });
    expect(protos(ContainerPortSchema, ['name', 'hostPort', 'containerPort', 'protocol', 'hostIP'])).toEqual({
      name: 1,
      hostPort: 2,
      containerPort: 3,
      protocol: 4,
      hostIP: 5,
    });
    expect(
      protos(PodStatusSchema, [
        'phase',
        'conditions',
        'hostIP',
        'podIP',
        'containerStatuses',
        'qosClass',
        'nominatedNodeName',
        'podIPs',
      ]),
    ).toEqual({
      phase: 1,
      conditions: 2,
      hostIP: 5,
      podIP: 6,
      containerStatuses: 8,
      qosClass: 9,
      nominatedNodeName: 11,
      podIPs: 12,
    });
    expect(protos(ContainerStatusSchema, ['name', 'state', 'ready', 'restartCount', 'started'])).toEqual({
      name: 1,
      state: 2,
      ready: 4,
      restartCount: 5,
      started: 9,
    });
    expect(protos(PodSpecSchema, ['os', 'hostUsers', 'schedulingGates'])).toEqual({
      os: 36,
      hostUsers: 37,
      schedulingGates: 38,
    });
    expect(protos(ContainerSchema, ['resizePolicy', 'restartPolicy'])).toEqual({
      resizePolicy: 23,
      restartPolicy: 24,
    });
    expect(
      protos(TopologySpreadConstraintSchema, Object.keys(props(TopologySpreadConstraintSchema))),
    ).toEqual({
      maxSkew: 1,
      topologyKey: 2,
      whenUnsatisfiable: 3,
      labelSelector: 4,
      minDomains: 5,
      nodeAffinityPolicy: 6,
      nodeTaintsPolicy: 7,
      matchLabelKeys: 8,
    });
    expect(protos(PodAffinityTermSchema, ['matchLabelKeys', 'mismatchLabelKeys'])).toEqual({
      matchLabelKeys: 5,
      mismatchLabelKeys: 6,
    });
    expect(protos(ProbeSchema, ['grpc'])).toEqual({ grpc: 4 });
    expect(protos(GRPCActionSchema, ['port', 'service'])).toEqual({ port: 1, service: 2 });
    expect(protos(PodTemplateSpecSchema, ['metadata', 'spec'])).toEqual({ metadata: 1, spec: 2 });
    expect(protos(VolumeSchema, ['name', 'emptyDir', 'secret', 'configMap', 'projected', 'csi'])).toEqual({
      name: 1,
      emptyDir: 2,
      secret: 6,
      configMap: 19,
      projected: 26,
      csi: 28,
    });
  });

  it('marks fields of inlined Go structs with the embedded protobuf message', () => {
    expect(props(ProbeSchema).httpGet?.[PROTO_EMBEDDED_KEYWORD]).toEqual({
      field: 'handler',
      proto: 1,
      message: 'k8s.io.api.core.v1.ProbeHandler',
    });
    expect(props(ProbeSchema).periodSeconds?.[PROTO_EMBEDDED_KEYWORD]).toBeUndefined();
    expect(props(VolumeSchema).emptyDir?.[PROTO_EMBEDDED_KEYWORD]).toMatchObject({
      field: 'volumeSource',
      proto: 2,
    });
    expect(props(ConfigMapKeySelectorSchema).name?.[PROTO_EMBEDDED_KEYWORD]).toMatchObject({
      field: 'localObjectReference',
      proto: 1,
    });
    expect(props(EphemeralContainerSchema).image?.[PROTO_EMBEDDED_KEYWORD]).toMatchObject({
      field: 'ephemeralContainerCommon',
      proto: 1,
    });
    expect(props(EphemeralContainerSchema).targetContainerName?.[OrchKeyword.proto]).toBe(2);
  });

  it('publishes Kubernetes merge metadata', () => {
    const spec = props(PodSpecSchema);
    expect(spec.containers).toMatchObject({
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    });
    expect(spec.volumes).toMatchObject({
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge,retainKeys',
    });
    expect(spec.imagePullSecrets).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name' });
    expect(spec.hostAliases).toMatchObject({ 'x-kubernetes-patch-merge-key': 'ip' });
    expect(spec.tolerations?.['x-kubernetes-list-type']).toBe('atomic');
    expect(spec.topologySpreadConstraints).toMatchObject({
      'x-kubernetes-patch-merge-key': 'topologyKey',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['topologyKey', 'whenUnsatisfiable'],
    });
    const container = props(ContainerSchema);
    expect(container.ports).toMatchObject({
      'x-kubernetes-patch-merge-key': 'containerPort',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
    });
    expect(container.env?.['x-kubernetes-patch-merge-key']).toBe('name');
    expect(container.volumeMounts?.['x-kubernetes-patch-merge-key']).toBe('mountPath');
    expect(container.volumeDevices?.['x-kubernetes-patch-merge-key']).toBe('devicePath');
    expect(props(PodStatusSchema).conditions?.['x-kubernetes-patch-merge-key']).toBe('type');
  });

  it('declares kinds, subresources and selectable fields as Kubernetes serves them', () => {
    expect(podFamilyKinds.map((k) => k.plural)).toEqual(['pods', 'podtemplates', 'replicationcontrollers']);
    expect(PodKind.shortNames).toEqual(['po']);
    expect(ReplicationControllerKind.shortNames).toEqual(['rc']);
    expect(PodKind.subresources?.eviction).toEqual({
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    });
    expect(PodKind.subresources?.binding).toEqual({ kind: 'Binding', verbs: ['create'] });
    expect(PodKind.subresources?.ephemeralcontainers).toMatchObject({ verbs: ['get', 'patch', 'update'] });
    expect(Object.keys(PodKind.subresources ?? {}).sort()).toEqual(
      [
        'attach',
        'binding',
        'ephemeralcontainers',
        'eviction',
        'exec',
        'log',
        'portforward',
        'proxy',
        'status',
      ].sort(),
    );
    expect(ReplicationControllerKind.subresources?.scale).toMatchObject({
      specReplicasPath: '.spec.replicas',
    });

    const p = pod(
      { nodeName: 'n1', restartPolicy: 'Never', serviceAccountName: 'sa' },
      {
        status: {
          phase: 'Running',
          podIP: '10.0.0.9',
          podIPs: [{ ip: '10.0.0.9' }, { ip: 'fd00::9' }],
          nominatedNodeName: 'n2',
        },
      },
    );
    const fields = Object.fromEntries(Object.entries(PodKind.selectableFields!).map(([k, f]) => [k, f(p)]));
    expect(fields).toEqual({
      'spec.nodeName': 'n1',
      'spec.restartPolicy': 'Never',
      'spec.schedulerName': '',
      'spec.serviceAccountName': 'sa',
      'status.phase': 'Running',
      'status.podIP': '10.0.0.9',
      'status.nominatedNodeName': 'n2',
    });
    const rc = { spec: {}, status: { replicas: 3 } } as ReplicationController;
    expect(ReplicationControllerKind.selectableFields!['status.replicas']!(rc)).toBe('3');
    expect(ReplicationControllerKind.selectableFields!['status.replicas']!({} as ReplicationController)).toBe(
      '0',
    );
  });
});

describe('Pod defaulting (Kubernetes 1.20)', () => {
  it('fills the pod and container defaults', () => {
    const p = pod({
      containers: [
        { name: 'a', image: 'nginx', ports: [{ containerPort: 80 }] },
        { name: 'b', image: 'nginx:latest' },
        { name: 'c', image: 'registry:5000/team/app:1.2' },
        { name: 'd', image: 'busybox@sha256:' + 'a'.repeat(64) },
        {
          name: 'e',
          image: 'nginx',
          imagePullPolicy: 'Never',
          resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } },
        },
      ],
      volumes: [
        { name: 'scratch' },
        { name: 's', secret: { secretName: 'x' } },
        { name: 'c', configMap: { name: 'cm' } },
      ],
    });
    expect(create(p)).toEqual([]);
    const spec = p.spec!;
    expect(spec).toMatchObject({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    });
    expect(spec.containers.map((c) => c.imagePullPolicy)).toEqual([
      'Always',
      'Always',
      'IfNotPresent',
      'IfNotPresent',
      'Never',
    ]);
    expect(spec.containers[0]).toMatchObject({
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {},
      ports: [{ containerPort: 80, protocol: 'TCP' }],
    });
    expect(spec.containers[4]!.resources).toEqual({
      limits: { cpu: '1', memory: '1Gi' },
      requests: { cpu: '500m', memory: '1Gi' },
    });
    expect(spec.volumes).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 's', secret: { secretName: 'x', defaultMode: 420 } },
      { name: 'c', configMap: { name: 'cm', defaultMode: 420 } },
    ]);
  });

  it('defaults probes and hostNetwork ports', () => {
    const p = pod({
      hostNetwork: true,
      containers: [
        {
          name: 'a',
          image: 'nginx',
          ports: [{ containerPort: 8080 }],
          livenessProbe: { httpGet: { port: 8080 } },
          readinessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 0, initialDelaySeconds: 5 },
        },
      ],
    });
    expect(create(p)).toEqual([]);
    const c = p.spec!.containers[0]!;
    expect(c.ports).toEqual([{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }]);
    expect(c.livenessProbe).toEqual({
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(c.readinessProbe).toMatchObject({ periodSeconds: 10, initialDelaySeconds: 5 });
  });

  it('computes the image pull policy from the reference', () => {
    expect(defaultImagePullPolicy('nginx')).toBe('Always');
    expect(defaultImagePullPolicy('nginx:latest')).toBe('Always');
    expect(defaultImagePullPolicy('localhost:5000/nginx')).toBe('Always');
    expect(defaultImagePullPolicy('nginx:1.19')).toBe('IfNotPresent');
    expect(defaultImagePullPolicy('nginx:latest@sha256:' + '0'.repeat(64))).toBe('Always');
    expect(defaultImagePullPolicy('Nginx')).toBe('IfNotPresent');
    expect(defaultImagePullPolicy('')).toBe('IfNotPresent');
  });

  it('defaults a replication controller from its template', () => {
    const rc = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc', namespace: 'default' },
      spec: {
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'a', image: 'nginx' }] },
        },
      },
    } as ReplicationController;
    rcs.default(rc);
    expect(messages(rcs.validate(rc))).toEqual([]);
    expect(rc.spec!.replicas).toBe(1);
    expect(rc.spec!.selector).toEqual({ app: 'web' });
    expect(rc.metadata!.labels).toEqual({ app: 'web' });
    expect(rc.spec!.template!.spec!.restartPolicy).toBe('Always');
    // Pod-only defaults stay off templates.
    expect(rc.spec!.template!.spec!.enableServiceLinks).toBeUndefined();
  });
});

describe('Pod validation messages', () => {
  it('requires an image and unique, valid container names', () => {
    expect(
      create(
        pod({
          containers: [{ name: 'app' }, { name: 'app', image: 'x' }],
          initContainers: [
            { name: 'app', image: 'x' },
            { name: 'Bad_Name', image: 'x' },
          ],
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        'spec.containers[0].image: Required value',
        'spec.containers[1].name: Duplicate value: "app"',
        'spec.initContainers[0].name: Duplicate value: "app"',
        expect.stringMatching(
          /^spec\.initContainers\[1\]\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of/,
        ),
      ]),
    );
    expect(create(pod({ containers: [] }))).toContain('spec.containers: Required value');
  });

  it('rejects bad enums, ports and env', () => {
    const errs = create(
      pod({
        restartPolicy: 'Sometimes',
        containers: [
          {
            name: 'app',
            image: 'x',
            ports: [
              { containerPort: 70000, name: 'http' },
              { containerPort: 81, name: 'http', protocol: 'ICMP' },
              { containerPort: 82, name: 'not_valid' },
            ],
            env: [
              { name: 'A=B', value: 'x' },
              { name: 'OK', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            ],
            envFrom: [{ prefix: '1x', configMapRef: { name: 'cm' } }, {}],
            terminationMessagePolicy: 'Sometimes',
            imagePullPolicy: 'Maybe',
          },
        ],
      }),
    );
    expect(errs).toEqual(
      expect.arrayContaining([
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.containers[0].imagePullPolicy: Unsupported value: "Maybe": supported values: "Always", "IfNotPresent", "Never"',
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].name: Duplicate value: "http"',
        'spec.containers[0].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        "spec.containers[0].terminationMessagePolicy: Invalid value: \"Sometimes\": must be 'File' or 'FallbackToLogsOnError'",
        'spec.containers[0].env[1].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
        'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
      ]),
    );
    expect(
      errs.some((e) => e.startsWith('spec.containers[0].ports[2].name: Invalid value: "not_valid"')),
    ).toBe(true);
    expect(errs.some((e) => e.startsWith('spec.containers[0].env[0].name: Invalid value: "A=B"'))).toBe(true);
    expect(errs.some((e) => e.startsWith('spec.containers[0].envFrom[0].prefix: Invalid value: "1x"'))).toBe(
      true,
    );
  });

  it('checks requests against limits with Kubernetes messages', () => {
    const errs = create(
      pod({
        containers: [
          {
            name: 'app',
            image: 'x',
            resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '1', memory: '2Gi' } },
          },
        ],
      }),
    );
    expect(errs).toEqual([
      'spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit',
      'spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit',
    ]);
    expect(
      create(pod({ containers: [{ name: 'app', image: 'x', resources: { requests: { gpu: '1' } } }] })),
    ).toEqual([
      'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
    ]);
  });

  it('validates volumes, mounts, probes and tolerations', () => {
    const errs = create(
      pod({
        volumes: [
          { name: 'v', emptyDir: {}, secret: { secretName: 's' } },
          { name: 'v', emptyDir: {} },
        ],
        initContainers: [{ name: 'init', image: 'x', readinessProbe: { exec: { command: ['true'] } } }],
        containers: [
          {
            name: 'app',
            image: 'x',
            volumeMounts: [
              { name: 'missing', mountPath: '/a' },
              { name: 'v', mountPath: '/a' },
            ],
            livenessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 }, successThreshold: 2 },
          },
        ],
        tolerations: [
          { operator: 'Equal', value: 'x' },
          { key: 'k', tolerationSeconds: 5, effect: 'NoSchedule' },
        ],
      }),
    );
    expect(errs).toEqual(
      expect.arrayContaining([
        'spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type',
        'spec.volumes[1].name: Duplicate value: "v"',
        'spec.containers[0].volumeMounts[0].name: Not found: "missing"',
        'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique',
        'spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
        'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
        'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        'spec.tolerations[1].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      ]),
    );
    expect(
      errs.some(
        (e) =>
          e.startsWith('spec.initContainers[0].readinessProbe: Invalid value: ') &&
          e.endsWith('must not be set for init containers'),
      ),
    ).toBe(true);
  });

  it('validates projected paths and sources', () => {
    const errs = create(
      pod({
        volumes: [
          {
            name: 's',
            secret: {
              secretName: 's',
              items: [
                { key: 'k', path: '/abs' },
                { key: 'k2', path: 'a/../b' },
                { key: 'k3', path: '..x' },
              ],
            },
          },
          {
            name: 'p',
            projected: {
              sources: [
                { secret: { name: 's' }, configMap: { name: 'c' } },
                { serviceAccountToken: { path: 'token', expirationSeconds: 60 } },
              ],
            },
          },
        ],
        containers: [
          { name: 'app', image: 'x', volumeMounts: [{ name: 's', mountPath: '/s', subPath: '../up' }] },
        ],
      }),
    );
    expect(errs).toEqual(
      expect.arrayContaining([
        'spec.volumes[0].secret.items[0].path: Invalid value: "/abs": must be a relative path',
        'spec.volumes[0].secret.items[1].path: Invalid value: "a/../b": must not contain \'..\'',
        'spec.volumes[0].secret.items[2].path: Invalid value: "..x": must not start with \'..\'',
        'spec.volumes[1].projected.sources[0]: Forbidden: may not specify more than 1 volume type',
        'spec.volumes[1].projected.sources[1].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
        'spec.containers[0].volumeMounts[0].subPath: Invalid value: "../up": must not contain \'..\'',
      ]),
    );
  });

  it('validates the 1.29 pod fields with Kubernetes messages', () => {
    const app = { name: 'app', image: 'nginx' };
    // a sidecar is an init container restarted Always; it may have probes
    expect(
      create(
        pod({
          containers: [app],
          initContainers: [
            {
              name: 'side',
              image: 'envoy',
              restartPolicy: 'Always',
              readinessProbe: { grpc: { port: 9901 } },
            },
          ],
          os: { name: 'linux' },
          schedulingGates: [{ name: 'example.com/quota' }],
          hostUsers: false,
        }),
      ),
    ).toEqual([]);
    expect(
      create(
        pod({
          containers: [{ ...app, restartPolicy: 'Always' }],
          initContainers: [
            { name: 'once', image: 'busybox', restartPolicy: 'Never' },
            { name: 'probed', image: 'busybox', livenessProbe: { exec: { command: ['true'] } } },
          ],
          os: { name: 'plan9' },
          schedulingGates: [{ name: 'not a name' }],
        }),
      ),
    ).toEqual([
      'spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers',
      'spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"',
      expect.stringMatching(
        /^spec\.initContainers\[1\]\.livenessProbe: Invalid value: .*: must not be set for init containers$/,
      ),
      'spec.os.name: Unsupported value: "plan9": supported values: "linux", "windows"',
      "spec.schedulingGates[0].name: Invalid value: \"not a name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    expect(
      create(pod({ containers: [{ ...app, startupProbe: { grpc: { port: 0 }, tcpSocket: { port: 80 } } }] })),
    ).toEqual([
      'spec.containers[0].startupProbe.grpc: Forbidden: may not specify more than 1 handler type',
      'spec.containers[0].startupProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
    const spread = (c: Record<string, unknown>) =>
      create(
        pod({
          containers: [app],
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', ...c },
          ],
        }),
      );
    expect(
      spread({ minDomains: 2, whenUnsatisfiable: 'DoNotSchedule', matchLabelKeys: ['pod-template-hash'] }),
    ).toEqual([]);
    expect(spread({ minDomains: 0, nodeAffinityPolicy: 'Sometimes' })).toEqual([
      'spec.topologySpreadConstraints[0].nodeAffinityPolicy: Unsupported value: "Sometimes": supported values: "Honor", "Ignore"',
      'spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero',
      'spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
    ]);
  });

  it('accepts tty without stdin, as Kubernetes does', () => {
    expect(create(pod({ containers: [{ name: 'app', image: 'x', tty: true }] }))).toEqual([]);
  });

  it('rejects ephemeral containers on create and checks dnsPolicy None', () => {
    expect(create(pod({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }))).toContain(
      'spec.ephemeralContainers: Forbidden: cannot be set on create',
    );
    expect(create(pod({ dnsPolicy: 'None' }))).toContain(
      'spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None',
    );
  });

  it('validates env var sources', () => {
    const env = (e: unknown) => create(pod({ containers: [{ name: 'app', image: 'x', env: [e] }] }));
    expect(env({ name: 'A', valueFrom: {} })).toEqual([
      'spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    ]);
    expect(
      env({ name: 'A', valueFrom: { configMapKeyRef: { key: 'k' }, secretKeyRef: { name: 's', key: 'k' } } }),
    ).toEqual([
      'spec.containers[0].env[0].valueFrom: Invalid value: "": may not have more than one field specified at a time',
      'spec.containers[0].env[0].valueFrom.configMapKeyRef.name: Required value',
    ]);
    expect(EnvVarSchema).toBeDefined();
  });
});

describe('downward API field references', () => {
  const envRef = (fieldPath: string, apiVersion?: string) =>
    create(
      pod({
        containers: [
          {
            name: 'app',
            image: 'x',
            env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath, apiVersion } } }],
          },
        ],
      }),
    );
  const volRef = (fieldPath: string) =>
    create(
      pod({ volumes: [{ name: 'info', downwardAPI: { items: [{ path: 'f', fieldRef: { fieldPath } }] } }] }),
    );
  const envAt = 'spec.containers[0].env[0].valueFrom.fieldRef';

  it('accepts the fields Kubernetes supports', () => {
    expect(envRef('status.podIP')).toEqual([]);
    expect(envRef('status.hostIPs')).toEqual([]);
    expect(envRef("metadata.labels['app']")).toEqual([]);
    expect(volRef('metadata.labels')).toEqual([]);
  });

  it("rejects others with Kubernetes' messages", () => {
    expect(envRef('status.phase')).toEqual([
      `${envAt}.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`,
    ]);
    expect(envRef('spec.nothing')).toEqual([
      `${envAt}.fieldPath: Invalid value: "spec.nothing": error converting fieldPath: field label not supported: spec.nothing`,
    ]);
    expect(envRef("spec.nodeName['x']")).toEqual([
      `${envAt}.fieldPath: Invalid value: "spec.nodeName['x']": error converting fieldPath: field label does not support subscript: spec.nodeName['x']`,
    ]);
    expect(volRef('spec.nodeName')).toEqual([
      'spec.volumes[0].downwardAPI.items[0].fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
    ]);
  });
});

describe('Go zero values', () => {
  it('defaults empty strings and zero probe fields like Kubernetes', () => {
    const p = pod({
      restartPolicy: '',
      dnsPolicy: '',
      containers: [
        {
          name: 'app',
          image: 'x',
          imagePullPolicy: '',
          ports: [{ containerPort: 53, protocol: '' }],
          readinessProbe: { exec: { command: ['x'] }, timeoutSeconds: 0 },
        },
      ],
    });
    expect(create(p)).toEqual([]);
    expect(p.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    expect(p.spec!.containers[0]).toMatchObject({
      imagePullPolicy: 'Always',
      ports: [{ protocol: 'TCP' }],
      readinessProbe: { timeoutSeconds: 1 },
    });
  });

  it('mirrors the deprecated serviceAccount and the pod IP fields as the v1 conversion does', () => {
    const p = pod({ serviceAccount: 'builder' }, { status: { podIP: '10.0.0.5' } });
    pods.default(p);
    expect(p.spec).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder' });
    expect(p.status?.podIPs).toEqual([{ ip: '10.0.0.5' }]);
    const q = pod({}, { status: { podIPs: [{ ip: '10.0.0.6' }, { ip: 'fd00::6' }] } });
    pods.default(q);
    expect(q.status?.podIP).toBe('10.0.0.6');
    expect(q.status?.podIPs).toHaveLength(2);
  });

  it('reports a pod without a spec as having no containers', () => {
    expect(
      create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace: 'default' } }),
    ).toContain('spec.containers: Required value');
  });
});

describe('Pod updates', () => {
  const stored = (): Pod => {
    const p = pod({
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
    });
    pods.default(p);
    return p;
  };
  const update = (mutate: (p: Pod) => void): string[] => {
    const old = stored();
    const next = structuredClone(old);
    mutate(next);
    pods.default(next);
    return messages(pods.validateUpdate(next, old));
  };

  it('allows image, activeDeadlineSeconds and added tolerations', () => {
    expect(
      update((p) => {
        p.spec!.containers[0]!.image = 'nginx:1.20';
        p.spec!.activeDeadlineSeconds = 60;
        p.spec!.tolerations!.push({ key: 'other', operator: 'Exists' });
        p.spec!.tolerations![0]!.tolerationSeconds = 10;
      }),
    ).toEqual([]);
  });

  it("rejects other spec changes with Kubernetes' message", () => {
    const errs = update((p) => {
      p.spec!.containers[0]!.env = [{ name: 'A', value: 'b' }];
    });
    expect(errs).toHaveLength(1);
    expect(errs[0]!.startsWith(`spec: Forbidden: ${POD_UPDATE_FORBIDDEN_MESSAGE}\n`)).toBe(true);
    expect(POD_UPDATE_FORBIDDEN_MESSAGE).toBe(
      'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    expect(update((p) => p.spec!.containers.push({ name: 'b', image: 'x' }))).toContain(
      'spec.containers: Forbidden: pod updates may not add or remove containers',
    );
    expect(update((p) => (p.spec!.tolerations![0]!.effect = 'NoSchedule'))).toContain(
      'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    );
  });

  it('lets a negative grace period be set to 1, and no other change of it', () => {
    const negative = stored();
    negative.spec!.terminationGracePeriodSeconds = -1;
    const one = structuredClone(negative);
    one.spec!.terminationGracePeriodSeconds = 1;
    expect(messages(pods.validateUpdate(one, negative))).toEqual([]);
    const two = structuredClone(negative);
    two.spec!.terminationGracePeriodSeconds = 2;
    expect(messages(pods.validateUpdate(two, negative))[0]).toMatch(
      /^spec: Forbidden: pod updates may not change/,
    );
    expect(update((p) => (p.spec!.terminationGracePeriodSeconds = 1))[0]).toMatch(
      /^spec: Forbidden: pod updates may not change/,
    );
  });

  it('lets scheduling gates be removed, not added', () => {
    const gated = stored();
    gated.spec!.schedulingGates = [{ name: 'example.com/a' }, { name: 'example.com/b' }];
    const removed = structuredClone(gated);
    removed.spec!.schedulingGates = [{ name: 'example.com/b' }];
    expect(messages(pods.validateUpdate(removed, gated))).toEqual([]);
    const added = structuredClone(gated);
    added.spec!.schedulingGates!.push({ name: 'example.com/c' });
    expect(messages(pods.validateUpdate(added, gated))).toEqual([
      "spec.schedulingGates: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/c'",
    ]);
  });

  it('only lets activeDeadlineSeconds decrease', () => {
    const old = stored();
    old.spec!.activeDeadlineSeconds = 30;
    const next = structuredClone(old);
    next.spec!.activeDeadlineSeconds = 60;
    expect(messages(PodKind.validateUpdate!(next, old) as FieldError[])).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value',
    ]);
  });
});

describe('kubectl columns', () => {
  const base = (status: Pod['status'], extra: Partial<Pod> = {}): Pod =>
    pod(
      {
        initContainers: [
          { name: 'i1', image: 'x' },
          { name: 'i2', image: 'x' },
        ],
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'x' },
        ],
      },
      { status, ...extra },
    );
  const running = { running: { startedAt: '2021-01-01T00:00:00Z' } };
  const initDone = [
    { name: 'i1', state: { terminated: { exitCode: 0, reason: 'Completed' } }, restartCount: 1 },
    { name: 'i2', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
  ];
  const row = (p: Pod) => cells(PodKind.columns as never, p, false);

  it.each<[string, Pod['status'], Partial<Pod>, string]>([
    ['phase only', { phase: 'Pending' }, {}, 'Pending'],
    ['status reason', { phase: 'Failed', reason: 'Evicted' }, {}, 'Evicted'],
    [
      'first init container running',
      {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'i1', state: running },
          { name: 'i2', state: { waiting: { reason: 'PodInitializing' } } },
        ],
      },
      {},
      'Init:0/2',
    ],
    [
      'second init container waiting',
      {
        phase: 'Pending',
        initContainerStatuses: [
          initDone[0]!,
          { name: 'i2', state: { waiting: { reason: 'PodInitializing' } } },
        ],
      },
      {},
      'Init:1/2',
    ],
    [
      'init crash loop',
      {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'i1', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
      },
      {},
      'Init:CrashLoopBackOff',
    ],
    [
      'init error',
      {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 1, reason: 'Error' } } }],
      },
      {},
      'Init:Error',
    ],
    [
      'init exit code',
      { phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 2 } } }] },
      {},
      'Init:ExitCode:2',
    ],
    [
      'init signal',
      {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 137, signal: 9 } } }],
      },
      {},
      'Init:Signal:9',
    ],
    [
      'container creating',
      {
        phase: 'Pending',
        initContainerStatuses: initDone,
        containerStatuses: [
          { name: 'a', state: { waiting: { reason: 'ContainerCreating' } } },
          { name: 'b', state: { waiting: { reason: 'ContainerCreating' } } },
        ],
      },
      {},
      'ContainerCreating',
    ],
    [
      'crash loop of one container',
      {
        phase: 'Running',
        initContainerStatuses: initDone,
        containerStatuses: [
          { name: 'a', state: { waiting: { reason: 'CrashLoopBackOff' } }, restartCount: 4 },
          { name: 'b', ready: true, state: running },
        ],
      },
      {},
      'CrashLoopBackOff',
    ],
    [
      'completed',
      {
        phase: 'Succeeded',
        initContainerStatuses: initDone,
        containerStatuses: [
          { name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'b', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
        ],
      },
      {},
      'Completed',
    ],
    [
      'completed with one still running and ready',
      {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        initContainerStatuses: initDone,
        containerStatuses: [
          { name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'b', ready: true, state: running },
        ],
      },
      {},
      'Running',
    ],
    [
      'completed with one still running, pod not ready',
      {
        phase: 'Running',
        initContainerStatuses: initDone,
        containerStatuses: [
          { name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'b', ready: true, state: running },
        ],
      },
      {},
      'NotReady',
    ],
    [
      'exit code without reason',
      {
        phase: 'Failed',
        initContainerStatuses: initDone,
        containerStatuses: [
          { name: 'a', state: { terminated: { exitCode: 3 } } },
          { name: 'b', state: running },
        ],
      },
      {},
      'ExitCode:3',
    ],
    [
      'terminating',
      {
        phase: 'Running',
        initContainerStatuses: initDone,
        containerStatuses: [
          { name: 'a', ready: true, state: running },
          { name: 'b', ready: true, state: running },
        ],
      },
      { metadata: { name: 'web', deletionTimestamp: '2021-01-01T00:05:00Z' } },
      'Terminating',
    ],
    [
      'node lost while deleting',
      { phase: 'Running', reason: 'NodeLost' },
      { metadata: { name: 'web', deletionTimestamp: '2021-01-01T00:05:00Z' } },
      'Unknown',
    ],
  ])('STATUS for %s', (_name, status, extra, expected) => {
    expect(row(base(status, extra))[2]).toBe(expected);
  });

  it('prints SchedulingGated for a pod held by scheduling gates', () => {
    const gated = base({
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
    });
    expect(summarizePod(gated).status).toBe('SchedulingGated');
    const unschedulable = base({
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    });
    expect(summarizePod(unschedulable).status).toBe('Pending');
  });

  it('declares RESTARTS a string column and tells how long ago the last restart was', () => {
    expect(PodKind.columns!.find((c) => c.name === 'Restarts')).toMatchObject({ type: 'string' });
    const restarted = base({
      phase: 'Running',
      initContainerStatuses: initDone,
      containerStatuses: [
        {
          name: 'a',
          ready: true,
          state: running,
          restartCount: 2,
          lastState: { terminated: { exitCode: 1, finishedAt: '2021-01-01T00:07:00Z' } },
        },
        {
          name: 'b',
          ready: true,
          state: running,
          restartCount: 3,
          lastState: { terminated: { exitCode: 1, finishedAt: '2021-01-01T00:04:30Z' } },
        },
      ],
    });
    // the latest termination of any container counts; the (completed) init container's restart does not
    expect(row(restarted)[3]).toBe('5 (3m ago)');
    // restarts without a known termination time print the bare count
    const counted = base({
      phase: 'Running',
      initContainerStatuses: initDone,
      containerStatuses: [{ name: 'a', ready: true, state: running, restartCount: 1 }],
    });
    expect(row(counted)[3]).toBe('1');
    // while initializing, the init containers' restarts and terminations count
    const initializing = base({
      phase: 'Pending',
      initContainerStatuses: [
        {
          name: 'i1',
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          restartCount: 4,
          lastState: { terminated: { exitCode: 1, finishedAt: '2021-01-01T00:09:50Z' } },
        },
      ],
    });
    expect(row(initializing).slice(1, 4)).toEqual(['0/2', 'Init:CrashLoopBackOff', '4 (10s ago)']);
  });

  it('counts started sidecars (restartPolicy Always init containers) as containers', () => {
    const withSidecar = (status: Pod['status']): Pod =>
      pod(
        {
          initContainers: [
            { name: 'setup', image: 'x' },
            { name: 'proxy', image: 'x', restartPolicy: 'Always' },
          ],
          containers: [{ name: 'app', image: 'x' }],
        },
        { status },
      );
    const setupDone = { name: 'setup', state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    const proxy = {
      name: 'proxy',
      started: true,
      ready: true,
      state: running,
      restartCount: 2,
      lastState: { terminated: { exitCode: 1, finishedAt: '2021-01-01T00:08:00Z' } },
    };
    // all running: the sidecar is ready, counted and its restarts shown
    expect(
      row(
        withSidecar({
          phase: 'Running',
          initContainerStatuses: [setupDone, proxy],
          containerStatuses: [{ name: 'app', ready: true, state: running }],
        }),
      ).slice(1, 4),
    ).toEqual(['2/2', 'Running', '2 (2m ago)']);
    // the sidecar started but the app container is still being created
    expect(
      row(
        withSidecar({
          phase: 'Pending',
          initContainerStatuses: [setupDone, { ...proxy, ready: false }],
          containerStatuses: [{ name: 'app', state: { waiting: { reason: 'ContainerCreating' } } }],
        }),
      ).slice(1, 3),
    ).toEqual(['0/2', 'ContainerCreating']);
    // a sidecar not started yet holds the pod in its init phase
    expect(
      row(
        withSidecar({
          phase: 'Pending',
          initContainerStatuses: [setupDone, { name: 'proxy', started: false, state: running }],
        }),
      ).slice(1, 3),
    ).toEqual(['0/2', 'Init:1/2']);
    // once the pod is initialized, a crashing sidecar keeps its Init reason but the app containers
    // are counted, and only the sidecar's and app containers' restarts show
    expect(
      row(
        withSidecar({
          phase: 'Running',
          conditions: [{ type: 'Initialized', status: 'True' }],
          initContainerStatuses: [
            { ...setupDone, restartCount: 7 },
            { ...proxy, started: false, ready: false, state: { waiting: { reason: 'CrashLoopBackOff' } } },
          ],
          containerStatuses: [{ name: 'app', ready: true, state: running, restartCount: 1 }],
        }),
      ).slice(1, 4),
    ).toEqual(['1/2', 'Init:CrashLoopBackOff', '3 (2m ago)']);
  });

  it('marks the table rows of finished pods Completed', () => {
    const finished = (phase: string) =>
      toTable(PodKind, [base({ phase } as Pod['status'])], { now: new Date('2021-01-01T00:10:00Z') })
        .rows![0]!;
    expect(finished('Succeeded').conditions).toEqual([
      {
        type: 'Completed',
        status: 'True',
        reason: 'Succeeded',
        message: 'The pod has completed successfully.',
      },
    ]);
    expect(finished('Failed').conditions).toEqual([
      { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
    ]);
    expect(finished('Running')).not.toHaveProperty('conditions');
  });

  it('computes READY, RESTARTS, AGE and the wide cells', () => {
    const p = base(
      {
        phase: 'Running',
        podIPs: [{ ip: '10.1.2.3' }],
        conditions: [
          { type: 'gate/one', status: 'True' },
          { type: 'gate/two', status: 'False' },
        ],
        initContainerStatuses: initDone,
        containerStatuses: [
          { name: 'a', ready: true, state: running, restartCount: 2 },
          { name: 'b', ready: false, state: running, restartCount: 3 },
        ],
      },
      { metadata: { name: 'web', creationTimestamp: '2021-01-01T00:00:00Z' } },
    );
    p.spec!.nodeName = 'node-1';
    p.spec!.readinessGates = [{ conditionType: 'gate/one' }, { conditionType: 'gate/two' }];
    expect(PodKind.columns!.map((c) => c.name)).toEqual([
      'Name',
      'Ready',
      'Status',
      'Restarts',
      'Age',
      'IP',
      'Node',
      'Nominated Node',
      'Readiness Gates',
    ]);
    expect(cells(PodKind.columns as never, p)).toEqual([
      'web',
      '1/2',
      'Running',
      '5',
      '10m',
      '10.1.2.3',
      'node-1',
      '<none>',
      '1/2',
    ]);
    expect(cells(PodKind.columns as never, pod()).slice(5)).toEqual(['<none>', '<none>', '<none>', '<none>']);
  });

  it('prints pod templates and replication controllers', () => {
    const pt = {
      metadata: { name: 'tpl' },
      template: {
        metadata: { labels: { tier: 'web', app: 'shop' } },
        spec: {
          containers: [
            { name: 'a', image: 'nginx' },
            { name: 'b', image: 'redis:6' },
          ],
        },
      },
    } as PodTemplate;
    expect(PodTemplateKind.columns!.map((c) => c.name)).toEqual([
      'Name',
      'Containers',
      'Images',
      'Pod Labels',
    ]);
    expect(cells(PodTemplateKind.columns as never, pt)).toEqual([
      'tpl',
      'a,b',
      'nginx,redis:6',
      'app=shop,tier=web',
    ]);
    const rc = {
      metadata: { name: 'rc', creationTimestamp: '2021-01-01T00:00:00Z' },
      spec: { replicas: 3, selector: { app: 'shop' }, template: pt.template },
      status: { replicas: 2, readyReplicas: 1 },
    } as ReplicationController;
    expect(ReplicationControllerKind.columns!.map((c) => c.name)).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ]);
    expect(cells(ReplicationControllerKind.columns as never, rc)).toEqual([
      'rc',
      3,
      2,
      1,
      '10m',
      'a,b',
      'nginx,redis:6',
      'app=shop',
    ]);
  });
});

describe('ReplicationController validation', () => {
  it('reports template labels under the template path, as Kubernetes does', () => {
    const rc = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc', namespace: 'default' },
      spec: {
        selector: { app: 'web' },
        template: {
          metadata: { labels: { app: 'web', 'bad key': 'x' } },
          spec: { nodeSelector: { disk: 'not ok!' }, containers: [{ name: 'a', image: 'x' }] },
        },
      },
    } as ReplicationController;
    rcs.default(rc);
    const errs = messages(rcs.validate(rc));
    expect(errs.some((e) => e.startsWith('spec.template.labels: Invalid value: "bad key": '))).toBe(true);
    expect(
      errs.some((e) => e.startsWith('spec.template.spec.nodeSelector: Invalid value: "not ok!": ')),
    ).toBe(true);
  });

  it("uses Kubernetes' messages", () => {
    const rc = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc', namespace: 'default' },
      spec: {
        selector: { app: 'other' },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'x' }] },
        },
      },
    } as ReplicationController;
    rcs.default(rc);
    expect(messages(rcs.validate(rc))).toEqual([
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
  });
});
