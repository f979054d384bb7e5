import { ConfigMapKind } from '../kinds/core/configmap';
import { LeaseKind } from '../kinds/coordination/lease';
import { protobufPrefix } from './envelope';
import { ProtobufCodec } from './protobuf-codec';
import * as pb from '../testing/proto-wire';

describe('ProtobufCodec', () => {
  const codec = new ProtobufCodec([ConfigMapKind, LeaseKind]);

  const cm = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'settings',
      namespace: 'default',
      uid: '6f1c8c2e-3a5b-4c1e-9f0a-1b2c3d4e5f60',
      resourceVersion: '42',
      generation: 3,
      creationTimestamp: '2026-11-22T21:00:00Z',
      labels: { app: 'web', tier: 'front' },
      annotations: { note: 'x' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          uid: 'u-1',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      finalizers: ['example.com/keep'],
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-11-22T21:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
        },
      ],
    },
    data: { a: '1', b: '' },
    binaryData: { bin: Buffer.from([0, 1, 2, 255]).toString('base64') },
    immutable: false,
  };

  it('round-trips an object JSON -> protobuf -> JSON unchanged', () => {
    expect(codec.decode(codec.encode(cm))).toEqual(cm);
  });

  it('converts each timestamp of a sequence, repeated or not, both ways (Time and MicroTime)', () => {
    const times = [
      '2026-11-22T21:00:00Z',
      '2026-11-22T21:00:00Z',
      '2026-11-22T21:00:01Z',
      '1969-12-31T23:59:59Z',
      '2026-11-22T21:00:00Z',
    ];
    for (const t of times) {
      const obj = { ...cm, metadata: { ...cm.metadata, creationTimestamp: t } };
      expect(codec.decode(codec.encode(obj))).toEqual(obj);
    }
    const lease = (renewTime: string) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l', namespace: 'default' },
      spec: { holderIdentity: 'a', renewTime },
    });
    const micro = [
      ['2026-11-22T21:00:00.123456Z', '2026-11-22T21:00:00.123456Z'],
      ['2026-11-22T21:00:00.654321Z', '2026-11-22T21:00:00.654321Z'],
      ['2026-11-22T22:00:00.500000+01:00', '2026-11-22T21:00:00.500000Z'],
      ['2026-11-22T21:00:02Z', '2026-11-22T21:00:02.000000Z'],
      ['2026-11-22T21:00:00.000001Z', '2026-11-22T21:00:00.000001Z'],
    ];
    for (const [sent, read] of micro) {
      expect(codec.decode(codec.encode(lease(sent!)))).toEqual(lease(read!));
    }
  });

  it('writes the k8s prefix and the Unknown envelope with the TypeMeta', () => {
    const body = codec.encode(cm);
    expect([...body.subarray(0, 4)]).toEqual([...protobufPrefix]);
    // Unknown.typeMeta is field 1 (length-delimited), whose apiVersion is field 1 and kind field 2.
    expect(body[4]).toBe((1 << 3) | 2);
    const typeMeta = [...pb.str(1, 'v1'), ...pb.str(2, 'ConfigMap')];
    expect([...body.subarray(5, 6 + typeMeta.length)]).toEqual([typeMeta.length, ...typeMeta]);
  });

  it('decodes bytes written from Kubernetes field numbers', () => {
    // ConfigMap{metadata(1){name(1), namespace(3), generation(7), labels(11)}, data(2) map entry, immutable(4)}
    const metadata = [
      ...pb.str(1, 'cfg'),
      ...pb.str(3, 'ns1'),
      ...pb.int(7, 5),
      ...pb.bytes(11, [...pb.str(1, 'k'), ...pb.str(2, 'v')]),
    ];
    const raw = [
      ...pb.bytes(1, metadata),
      ...pb.bytes(2, [...pb.str(1, 'key'), ...pb.str(2, 'value')]),
      ...pb.int(4, 1),
    ];
    const envelope = [...pb.bytes(1, [...pb.str(1, 'v1'), ...pb.str(2, 'ConfigMap')]), ...pb.bytes(2, raw)];
    const decoded = codec.decode(Uint8Array.from([...protobufPrefix, ...envelope]));
    expect(decoded).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'ns1', generation: 5, labels: { k: 'v' } },
      data: { key: 'value' },
      immutable: true,
    });
  });

  it('rejects a missing or different prefix', () => {
    const body = codec.encode(cm);
    expect(() => codec.decode(body.subarray(4))).toThrow(/expected prefix \[107 56 115 0\]/);
    const wrong = Uint8Array.from(body);
    wrong[2] = 0x74;
    expect(() => codec.decode(wrong)).toThrow(/does not appear to be a protobuf message/);
  });

  it('encodes lists and Status in every served group/version', () => {
    // list items carry no TypeMeta in protobuf, as in Kubernetes' list responses
    const { apiVersion: _a, kind: _k, ...item } = cm;
    const list = {
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      metadata: { resourceVersion: '9', continue: 'abc' },
      items: [item],
    };
    expect(codec.decode(codec.encode(list))).toEqual(list);
    const status = {
      apiVersion: 'v1',
      kind: 'Status',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'configmaps' },
      code: 404,
    };
    expect(codec.decode(codec.encode(status))).toEqual(status);
  });

  it('frames watch events with a length prefix and the object in its envelope', () => {
    const frame = codec.encodeWatchEvent('ADDED', cm);
    const length = new DataView(frame.buffer, frame.byteOffset).getUint32(0, false);
    expect(length).toBe(frame.length - 4);
    expect(codec.decodeWatchEvent(frame.subarray(4))).toEqual({ type: 'ADDED', object: cm });
  });

  it('refuses kinds it has no message for', () => {
    expect(() => codec.encode({ apiVersion: 'example.com/v1', kind: 'Widget' })).toThrow(
      /no protobuf representation/,
    );
    expect(codec.supports('v1', 'ConfigMap')).toBe(true);
    expect(codec.supports('example.com/v1', 'Widget')).toBe(false);
  });
});
