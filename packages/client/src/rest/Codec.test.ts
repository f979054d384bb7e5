import { LengthPrefixedFramer } from '../watch/Framer';
import { CodecRegistry, JSON_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE, type Codec } from './Codec';
import { RestClient } from './RestClient';
import { buildUserAgent } from './userAgent';

class FakeBinaryCodec implements Codec {
  readonly mediaType = PROTOBUF_MEDIA_TYPE;
  encode(obj: unknown): Buffer {
    return Buffer.from(`BIN:${JSON.stringify(obj)}`);
  }
  decode(data: Buffer): unknown {
    return JSON.parse(data.toString().slice(4));
  }
  newFramer(): LengthPrefixedFramer {
    return new LengthPrefixedFramer();
  }
}

describe('CodecRegistry', () => {
  it('asks for JSON only while no codec exists for the preferred type', () => {
    const reg = new CodecRegistry(PROTOBUF_MEDIA_TYPE);
    expect(reg.accept()).toBe(JSON_MEDIA_TYPE);
    expect(reg.bodyCodec().mediaType).toBe(JSON_MEDIA_TYPE);
    expect(reg.forContentType('application/json; charset=utf-8')?.mediaType).toBe(JSON_MEDIA_TYPE);
    expect(reg.forContentType(PROTOBUF_MEDIA_TYPE)).toBeUndefined();
  });

  it('prefers a registered codec, with JSON as fallback, and accepts aliases', () => {
    const reg = new CodecRegistry(PROTOBUF_MEDIA_TYPE);
    reg.register(new FakeBinaryCodec(), 'application/vnd.kubernetes.protobuf');
    expect(reg.accept()).toBe(`${PROTOBUF_MEDIA_TYPE}, ${JSON_MEDIA_TYPE}`);
    expect(reg.bodyCodec().mediaType).toBe(PROTOBUF_MEDIA_TYPE);
    expect(reg.forContentType('application/vnd.kubernetes.protobuf;stream=watch')?.mediaType).toBe(
      PROTOBUF_MEDIA_TYPE,
    );
    const client = new RestClient({ server: 'https://example.invalid' }, { codecs: reg });
    try {
      const req = client.post().resource('configmaps').body({ a: 1 });
      expect(req.url()).toBe('/api/v1/configmaps');
    } finally {
      client.close();
    }
  });
});

describe('buildUserAgent', () => {
  it('formats command/version (os/arch) orch/commit', () => {
    expect(
      buildUserAgent({
        command: 'orch-scheduler',
        version: 'v1.20.0',
        platform: 'linux',
        arch: 'amd64',
        commit: 'abc1234',
      }),
    ).toBe('orch-scheduler/v1.20.0 (linux/amd64) orch/abc1234');
    expect(buildUserAgent({ command: 'x' })).toMatch(/^x\/v0\.0\.0 \([a-z0-9]+\/[a-z0-9]+\) orch\/unknown$/);
  });
});
