import { StatusError } from '../errors/status-error';
import {
  checkPartialKind,
  internalGoType,
  negotiate,
  tableIncludeObject,
  type NegotiateOptions,
} from './negotiate';

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
          partial: { group: 'meta.k8s.io', version: 'v1', kind: as },
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

function thrown(f: () => void): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('nothing was thrown');
}

describe('checkPartialKind', () => {
  const asked = (as: string) => negotiate(`application/json;as=${as};v=v1;g=meta.k8s.io`, get);

  it('refuses a metadata-only list for one object, as Kubernetes’ asPartialObjectMetadataList does', () => {
    expect(
      thrown(() => checkPartialKind(asked('PartialObjectMetadataList'), false, '*core.ConfigMap')).status,
    ).toMatchObject({
      code: 406,
      reason: 'NotAcceptable',
      message:
        'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
    });
  });

  it('refuses one metadata-only object for a list', () => {
    expect(
      thrown(() => checkPartialKind(asked('PartialObjectMetadata'), true, '*core.ConfigMapList')).status,
    ).toMatchObject({
      code: 406,
      reason: 'NotAcceptable',
      message:
        'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
    });
  });

  it('lets the fitting kinds and other representations through', () => {
    expect(() => checkPartialKind(asked('PartialObjectMetadata'), false, 'x')).not.toThrow();
    expect(() => checkPartialKind(asked('PartialObjectMetadataList'), true, 'x')).not.toThrow();
    expect(() => checkPartialKind(negotiate('application/json', get), true, 'x')).not.toThrow();
  });
});

describe('internalGoType', () => {
  it('names the internal Go type Kubernetes prints with %T', () => {
    expect(internalGoType({ group: '', kind: 'ConfigMap' }, false)).toBe('*core.ConfigMap');
    expect(internalGoType({ group: '', kind: 'ConfigMap' }, true)).toBe('*core.ConfigMapList');
    expect(internalGoType({ group: 'apps', kind: 'Deployment' }, true)).toBe('*apps.DeploymentList');
    expect(internalGoType({ group: 'rbac.authorization.k8s.io', kind: 'Role' }, false)).toBe('*rbac.Role');
    expect(internalGoType({ group: 'events.k8s.io', kind: 'Event' }, false)).toBe('*core.Event');
    expect(internalGoType({ group: 'example.com', kind: 'Widget', customResource: true }, true)).toBe(
      '*unstructured.UnstructuredList',
    );
  });
});

describe('tableIncludeObject', () => {
  const q = (v?: string) => new URLSearchParams(v === undefined ? {} : { includeObject: v });

  it('reads None, Metadata and Object, and an absent or empty value as Metadata', () => {
    expect(tableIncludeObject(q())).toBe('Metadata');
    expect(tableIncludeObject(q(''))).toBe('Metadata');
    for (const v of ['None', 'Metadata', 'Object']) expect(tableIncludeObject(q(v))).toBe(v);
  });

  it('answers another value with Kubernetes’ 400 from ValidateTableOptions', () => {
    for (const v of ['Bogus', 'none']) {
      expect(thrown(() => tableIncludeObject(q(v))).status).toMatchObject({
        code: 400,
        reason: 'BadRequest',
        message: `Unable to convert to Table as requested: includeObject: Invalid value: "${v}": must be 'Metadata', 'Object', 'None', or empty`,
      });
    }
  });
});
