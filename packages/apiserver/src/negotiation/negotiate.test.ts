import { StatusError } from '../errors/status-error';
import { negotiate, type NegotiateOptions } from './negotiate';

const get: NegotiateOptions = { protobuf: true, table: true };
const watch: NegotiateOptions = { protobuf: true, table: true, stream: true };
const protobuf = 'application/vnd.kubernetes.protobuf';

function refused(accept: string, options: NegotiateOptions): StatusError {
  try {
    negotiate(accept, options);
  } catch (e) {
    return e as StatusError;
  }
  throw new Error(`${accept} was served`);
}

describe('negotiate', () => {
  it('serves JSON by default, and to */* and application/*', () => {
    for (const accept of [undefined, '', '*/*', 'application/*', 'application/json']) {
      expect(negotiate(accept, get)).toEqual({ format: 'json', contentType: 'application/json' });
    }
  });

  it('serves protobuf in the spelling asked for, for kinds with a protobuf message only', () => {
    for (const type of [protobuf, 'application/vnd.orch.protobuf']) {
      expect(negotiate(type, get)).toEqual({ format: 'protobuf', contentType: type });
    }
    // a JSON-only kind falls back to the next entry of the list, or is refused
    const jsonOnly = { protobuf: false, table: true };
    expect(negotiate(`${protobuf}, application/json`, jsonOnly).format).toBe('json');
    expect(refused(protobuf, jsonOnly).status.code).toBe(406);
  });

  it('serves YAML, but not to a watch', () => {
    expect(negotiate('application/yaml', get)).toEqual({ format: 'yaml', contentType: 'application/yaml' });
    expect(negotiate('application/yaml, application/json', watch).format).toBe('json');
    expect(refused('application/yaml', watch).status.code).toBe(406);
  });

  describe('Tables', () => {
    it.each([
      ['meta.k8s.io', 'v1'],
      ['meta.k8s.io', 'v1beta1'],
      ['meta.orch.io', 'v1'],
      ['meta.orch.io', 'v1beta1'],
    ])('are answered in the group %s and version %s asked for', (group, version) => {
      expect(negotiate(`application/json;as=Table;v=${version};g=${group}`, get)).toEqual({
        format: 'json',
        contentType: `application/json;as=Table;v=${version};g=${group}`,
        table: { group, version },
      });
    });

    it('are served as JSON or YAML, never protobuf, as Kubernetes serves them', () => {
      expect(negotiate('application/yaml;as=Table;v=v1;g=meta.k8s.io', get)).toMatchObject({
        format: 'yaml',
        contentType: 'application/yaml;as=Table;v=v1;g=meta.k8s.io',
        table: { group: 'meta.k8s.io', version: 'v1' },
      });
      const pbTable = `${protobuf};as=Table;v=v1;g=meta.k8s.io`;
      expect(refused(pbTable, get).status.code).toBe(406);
      // the next entry is served instead
      expect(negotiate(`${pbTable}, application/json;as=Table;v=v1;g=meta.k8s.io`, get)).toMatchObject({
        format: 'json',
        table: { group: 'meta.k8s.io', version: 'v1' },
      });
      expect(negotiate(`${pbTable}, ${protobuf}`, get)).toEqual({
        format: 'protobuf',
        contentType: protobuf,
      });
    });

    it("fall back along kubectl's Accept list where a Table cannot be served", () => {
      const kubectl =
        'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
      expect(negotiate(kubectl, get).table).toEqual({ group: 'meta.k8s.io', version: 'v1' });
      // a subresource without tables, and a group, version or kind the server does not know
      expect(negotiate(kubectl, { protobuf: true, table: false })).toEqual({
        format: 'json',
        contentType: 'application/json',
      });
      for (const unknown of [
        'application/json;as=Table;v=v2;g=meta.k8s.io',
        'application/json;as=Table;v=v1;g=apps',
        'application/json;as=Bogus;v=v1;g=meta.k8s.io',
      ]) {
        expect(negotiate(`${unknown}, application/json`, get)).toEqual({
          format: 'json',
          contentType: 'application/json',
        });
        expect(refused(unknown, get).status.code).toBe(406);
      }
    });

    it('stream to a watch as JSON only', () => {
      expect(negotiate('application/json;as=Table;v=v1;g=meta.k8s.io', watch).table).toBeDefined();
      expect(refused('application/yaml;as=Table;v=v1;g=meta.k8s.io', watch).status.code).toBe(406);
    });
  });

  it('serves metadata-only objects in every format, for kinds without a protobuf message too', () => {
    const jsonOnly = { protobuf: false, table: false };
    for (const [type, format] of [
      ['application/json', 'json'],
      ['application/yaml', 'yaml'],
      [protobuf, 'protobuf'],
    ] as const) {
      for (const as of ['PartialObjectMetadata', 'PartialObjectMetadataList']) {
        expect(negotiate(`${type};as=${as};g=meta.k8s.io;v=v1`, jsonOnly)).toEqual({
          format,
          contentType: `${type};as=${as};v=v1;g=meta.k8s.io`,
          partial: { group: 'meta.k8s.io', version: 'v1' },
        });
      }
    }
  });

  it('answers 406 NotAcceptable naming the types it serves when nothing in Accept can be served', () => {
    const e = refused('text/html, image/png', get);
    expect(e.status).toMatchObject({ code: 406, reason: 'NotAcceptable' });
    expect(e.status.message).toContain('application/json');
    expect(e.status.message).toContain('application/vnd.kubernetes.protobuf');
  });
});
