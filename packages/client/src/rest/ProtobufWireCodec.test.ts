import { LengthPrefixedFramer } from '../watch/Framer';
import { KUBERNETES_PROTOBUF_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE } from './Codec';
import { defaultCodecRegistry } from './defaultCodecRegistry';
import { ProtobufWireCodec, sharedProtobufCodec } from './ProtobufWireCodec';

const configMap: { apiVersion: string; kind: string; [field: string]: unknown } = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', labels: { a: 'b' } },
  data: { key: 'value' },
};

const deletedConfigMap = { ...configMap, data: { gone: 'yes' } };

describe('ProtobufWireCodec', () => {
  const codec = new ProtobufWireCodec();

  it('encodes with the k8s\\0 prefix and decodes back to the JSON form', () => {
    const bytes = codec.encode(configMap);
    expect([...bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    expect(codec.decode(bytes)).toEqual(configMap);
  });

  it('decodes length-prefixed watch frames holding enveloped objects', () => {
    const frames = Buffer.concat([
      Buffer.from(sharedProtobufCodec().encodeWatchEvent('ADDED', configMap)),
      Buffer.from(sharedProtobufCodec().encodeWatchEvent('DELETED', deletedConfigMap)),
    ]);
    const framer = codec.newFramer();
    expect(framer).toBeInstanceOf(LengthPrefixedFramer);
    // Split mid-frame to check reassembly.
    const parts = [...framer.push(frames.subarray(0, 7)), ...framer.push(frames.subarray(7))];
    expect(parts.map((f) => codec.decodeWatchEvent(f))).toEqual([
      { type: 'ADDED', object: configMap },
      { type: 'DELETED', object: deletedConfigMap },
    ]);
  });

  it('leaves objects without a message (or without apiVersion/kind) to JSON', () => {
    expect(codec.canEncode(configMap)).toBe(true);
    expect(codec.canEncode({ apiVersion: 'example.com/v1', kind: 'Widget' })).toBe(false);
    expect(codec.canEncode({ metadata: {} })).toBe(false);
    const registry = defaultCodecRegistry(PROTOBUF_MEDIA_TYPE);
    expect(registry.accept()).toBe(`${PROTOBUF_MEDIA_TYPE}, application/json`);
    expect(registry.codecForBody(configMap).mediaType).toBe(PROTOBUF_MEDIA_TYPE);
    expect(registry.codecForBody({ apiVersion: 'example.com/v1', kind: 'Widget' }).mediaType).toBe(
      'application/json',
    );
    expect(registry.forContentType(KUBERNETES_PROTOBUF_MEDIA_TYPE)).toBe(registry.bodyCodec());
    expect(defaultCodecRegistry().accept()).toBe('application/json');
  });
});
