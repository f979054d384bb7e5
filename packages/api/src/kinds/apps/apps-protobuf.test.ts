import { protobufPrefix } from '../../protobuf/envelope';
import { ProtobufCodec } from '../../protobuf/protobuf-codec';
import { DaemonSetKind, StatefulSetKind } from './index';
import { bytes, int, str } from '../../testing/proto-wire';

/**
 * The apps/v1 fields of Kubernetes 1.29 on the wire: bytes laid out by hand from the field numbers of
 * k8s.io/api/apps/v1/generated.proto, decoded, and the JSON encoded and decoded back unchanged.
 */
// util/intstr IntOrString: type 1 (0 int, 1 string), intVal 2, strVal 3
const intVal = (field: number, n: number): number[] => bytes(field, [...int(1, 0), ...int(2, n)]);
const strVal = (field: number, s: string): number[] => bytes(field, [...int(1, 1), ...str(3, s)]);

const envelope = (apiVersion: string, kind: string, raw: number[]): Uint8Array => {
  const typeMeta = [...str(1, apiVersion), ...str(2, kind)];
  return Uint8Array.from([...protobufPrefix, ...bytes(1, typeMeta), ...bytes(2, raw)]);
};
// LabelSelector matchLabels 1 (map entry key 1, value 2); PodTemplateSpec metadata 1 (labels 11), spec 2
// (PodSpec containers 2: name 1, image 2)
const selector = (app: string): number[] => bytes(1, [...str(1, 'app'), ...str(2, app)]);
const template = (app: string, image: string): number[] => [
  ...bytes(1, bytes(11, [...str(1, 'app'), ...str(2, app)])),
  ...bytes(2, bytes(2, [...str(1, app), ...str(2, image)])),
];

describe('apps/v1 on the wire', () => {
  const codec = new ProtobufCodec([DaemonSetKind, StatefulSetKind]);

  it("carries a DaemonSet's maxSurge as RollingUpdateDaemonSet field 2", () => {
    // DaemonSetSpec: selector 1, template 2, updateStrategy 3 (type 1, rollingUpdate 2:
    // maxUnavailable 1, maxSurge 2), minReadySeconds 4, revisionHistoryLimit 6
    const rollingUpdate = [...intVal(1, 0), ...strVal(2, '25%')];
    const spec = [
      ...bytes(1, selector('agent')),
      ...bytes(2, template('agent', 'agent:1')),
      ...bytes(3, [...str(1, 'RollingUpdate'), ...bytes(2, rollingUpdate)]),
      ...int(4, 5),
      ...int(6, 10),
    ];
    const raw = [...bytes(1, str(1, 'agent')), ...bytes(2, spec)];
    const json = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'agent', image: 'agent:1' }] },
        },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
        minReadySeconds: 5,
        revisionHistoryLimit: 10,
      },
    };
    expect(codec.decode(envelope('apps/v1', 'DaemonSet', raw))).toEqual(json);
    expect(codec.decode(codec.encode(json))).toEqual(json);
  });

  it('carries the StatefulSet fields of Kubernetes 1.29 with their numbers', () => {
    // StatefulSetSpec: replicas 1, selector 2, template 3, serviceName 5, podManagementPolicy 6,
    // updateStrategy 7 (type 1, rollingUpdate 2: partition 1, maxUnavailable 2), revisionHistoryLimit 8,
    // minReadySeconds 9, persistentVolumeClaimRetentionPolicy 10 (whenDeleted 1, whenScaled 2),
    // ordinals 11 (start 1)
    const spec = [
      ...int(1, 3),
      ...bytes(2, selector('db')),
      ...bytes(3, template('db', 'postgres:16')),
      ...str(5, 'db'),
      ...str(6, 'Parallel'),
      ...bytes(7, [...str(1, 'RollingUpdate'), ...bytes(2, [...int(1, 1), ...strVal(2, '50%')])]),
      ...int(8, 10),
      ...int(9, 30),
      ...bytes(10, [...str(1, 'Delete'), ...str(2, 'Retain')]),
      ...bytes(11, int(1, 4)),
    ];
    // StatefulSetStatus: observedGeneration 1, replicas 2, readyReplicas 3, availableReplicas 11
    const status = [...int(1, 2), ...int(2, 3), ...int(3, 3), ...int(11, 2)];
    const raw = [...bytes(1, str(1, 'db')), ...bytes(2, spec), ...bytes(3, status)];
    const json = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'db', image: 'postgres:16' }] },
        },
        serviceName: 'db',
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1, maxUnavailable: '50%' } },
        revisionHistoryLimit: 10,
        minReadySeconds: 30,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
        ordinals: { start: 4 },
      },
      status: { observedGeneration: 2, replicas: 3, readyReplicas: 3, availableReplicas: 2 },
    };
    expect(codec.decode(envelope('apps/v1', 'StatefulSet', raw))).toEqual(json);
    expect(codec.decode(codec.encode(json))).toEqual(json);
  });

  it('round-trips an integer maxUnavailable and a zero start ordinal', () => {
    const json = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'db', image: 'postgres:16' }] },
        },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } },
        ordinals: { start: 0 },
      },
      status: { replicas: 0, availableReplicas: 0 },
    };
    expect(codec.decode(codec.encode(json))).toEqual(json);
  });
});
