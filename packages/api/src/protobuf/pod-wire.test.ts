import { PodKind } from '../kinds/core/pod';
import { protobufPrefix } from './envelope';
import { ProtobufCodec } from './protobuf-codec';
import { bytes, int, str } from '../testing/proto-wire';

describe('a Pod on the wire', () => {
  const codec = new ProtobufCodec([PodKind]);
  const startedAt = Date.parse('2026-11-22T21:00:00Z') / 1000;

  // k8s.io.api.core.v1.Pod: metadata 1, spec 2, status 3
  const wire = (): Uint8Array => {
    const metadata = [
      ...str(1, 'web-0'),
      ...str(3, 'default'),
      ...bytes(11, [...str(1, 'app'), ...str(2, 'web')]),
    ];
    const port = [...int(3, 80), ...str(4, 'TCP')]; // ContainerPort: containerPort 3, protocol 4
    const limits = bytes(1, [...str(1, 'cpu'), ...bytes(2, str(1, '500m'))]); // ResourceRequirements.limits 1: map<string, Quantity{string 1}>
    const container = [...str(1, 'nginx'), ...str(2, 'nginx:1.25'), ...bytes(6, port), ...bytes(8, limits)]; // name 1, image 2, ports 6, resources 8
    // PodSpec: containers 2, restartPolicy 3, terminationGracePeriodSeconds 4, nodeName 10
    const spec = [...bytes(2, container), ...str(3, 'Always'), ...int(4, 30), ...str(10, 'node-1')];
    // PodStatus: phase 1, podIP 6, startTime 7 (meta/v1 Time: seconds 1)
    const status = [...str(1, 'Running'), ...str(6, '10.244.0.5'), ...bytes(7, int(1, startedAt))];
    const raw = [...bytes(1, metadata), ...bytes(2, spec), ...bytes(3, status)];
    const typeMeta = [...str(1, 'v1'), ...str(2, 'Pod')];
    return Uint8Array.from([...protobufPrefix, ...bytes(1, typeMeta), ...bytes(2, raw)]);
  };

  const json = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'default', labels: { app: 'web' } },
    spec: {
      containers: [
        {
          name: 'nginx',
          image: 'nginx:1.25',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          resources: { limits: { cpu: '500m' } },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      nodeName: 'node-1',
    },
    status: { phase: 'Running', podIP: '10.244.0.5', startTime: '2026-11-22T21:00:00Z' },
  };

  it("decodes bytes written from Kubernetes' field numbers", () => {
    expect(codec.decode(wire())).toEqual(json);
  });

  it('encodes to bytes that decode the same way', () => {
    expect(codec.decode(codec.encode(json))).toEqual(json);
  });

  // Go writes every field that is not a pointer, zeros included: an empty Time message for a zero
  // time, "" for unset strings, 0 and false; Kubernetes reads the zero time and the "" of enumerations
  // and defaulted strings as unset (its JSON omits them, its defaulters fill them)
  it('reads the zero values a Go client writes as Kubernetes does', () => {
    const metadata = [
      ...str(1, 'web-0'),
      ...str(2, ''), // generateName
      ...str(3, 'default'),
      ...str(4, ''), // selfLink
      ...str(5, ''), // uid
      ...str(6, ''), // resourceVersion
      ...int(7, 0), // generation
      ...bytes(8, []), // creationTimestamp: zero Time
    ];
    const container = [
      ...str(1, 'nginx'),
      ...str(2, 'nginx:1.25'),
      ...str(13, ''), // terminationMessagePath (defaulted)
      ...str(14, ''), // imagePullPolicy (enumeration)
      ...bytes(8, []), // resources
      ...str(20, ''), // terminationMessagePolicy (enumeration)
    ];
    const spec = [
      ...bytes(2, container),
      ...str(3, ''), // restartPolicy
      ...str(6, ''), // dnsPolicy
      ...str(10, ''), // nodeName: a name format, which "" is not
      ...str(9, ''), // serviceAccount (deprecated): a plain value in Go, omitted when zero
      ...int(11, 0), // hostNetwork: false, likewise
      ...str(19, ''), // schedulerName (defaulted)
      // pointers in Go, written only when set: their zeros are meant and kept
      ...int(4, 0), // terminationGracePeriodSeconds: 0, stop at once
      ...int(30, 0), // enableServiceLinks: false, where unset means true
    ];
    const status = [...str(1, 'Pending'), ...bytes(7, [...int(1, startedAt)])];
    const raw = [...bytes(1, metadata), ...bytes(2, spec), ...bytes(3, status)];
    const typeMeta = [...str(1, 'v1'), ...str(2, 'Pod')];
    const body = Uint8Array.from([...protobufPrefix, ...bytes(1, typeMeta), ...bytes(2, raw)]);
    expect(codec.decode(body)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0', namespace: 'default' },
      spec: {
        containers: [{ name: 'nginx', image: 'nginx:1.25', resources: {} }],
        terminationGracePeriodSeconds: 0,
        enableServiceLinks: false,
      },
      status: { phase: 'Pending', startTime: '2026-11-22T21:00:00Z' },
    });
  });

  it('keeps the Unix epoch, which is not the zero time', () => {
    const epoch = { ...json, status: { ...json.status, startTime: '1970-01-01T00:00:00Z' } };
    expect(codec.decode(codec.encode(epoch))).toEqual(epoch);
  });
});
