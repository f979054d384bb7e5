import { allKinds, buildOpenAPIv2, RESTMapper } from '@orch/api';
import YAML from 'yaml';
import {
  encodeOpenAPIv2,
  openAPIv2DocumentType,
  openAPIv2Format,
  openAPIv2ProtobufMediaType,
  openAPIv2ProtobufMediaTypeDeprecated,
} from './openapiv2-protobuf';

type Named<T> = { name: string; value: T };
type AnyValue = { yaml: string };
interface SchemaMessage {
  _ref?: string;
  description?: string;
  format?: string;
  type?: { value: string[] };
  required?: string[];
  items?: { schema: SchemaMessage[] };
  additional_properties?: { schema?: SchemaMessage; boolean?: boolean };
  properties?: { additional_properties: Named<SchemaMessage>[] };
  enum?: AnyValue[];
  default?: AnyValue;
  vendor_extension?: Named<AnyValue>[];
}
interface DocumentMessage {
  swagger: string;
  info: { title: string; version: string };
  paths: { path: Named<Record<string, any>>[] };
  definitions: { additional_properties: Named<SchemaMessage>[] };
  security_definitions: { additional_properties: Named<Record<string, any>>[] };
  security: { additional_properties: Named<{ value: string[] }>[] }[];
}
type JSONSchema = Record<string, any>;

const json = buildOpenAPIv2(new RESTMapper(allKinds).all(), { title: 'orch', version: 'v1.0.0-test' }) as {
  paths: Record<string, Record<string, any>>;
  definitions: Record<string, JSONSchema>;
};
const decoded = openAPIv2DocumentType.toObject(openAPIv2DocumentType.decode(encodeOpenAPIv2(json)), {
  longs: Number,
}) as DocumentMessage;

const byName = <T>(list: Named<T>[] | undefined, name: string): T | undefined =>
  list?.find((n) => n.name === name)?.value;
const definition = (name: string) => byName(decoded.definitions.additional_properties, name)!;
const property = (s: SchemaMessage, name: string) => byName(s.properties?.additional_properties, name)!;
const extension = (s: { vendor_extension?: Named<AnyValue>[] }, name: string): unknown => {
  const v = byName(s.vendor_extension, name);
  return v && YAML.parse(v.yaml);
};

describe('the protobuf form of the OpenAPI v2 document', () => {
  it('carries the document, its paths and its definitions in their order', () => {
    expect(decoded.swagger).toBe('2.0');
    expect(decoded.info).toEqual({ title: 'orch', version: 'v1.0.0-test' });
    expect(decoded.definitions.additional_properties.map((d) => d.name)).toEqual(
      Object.keys(json.definitions),
    );
    expect(decoded.paths.path.map((p) => p.name)).toEqual(Object.keys(json.paths));
  });

  it('describes a kind with its fields, types, references and group-version-kinds', () => {
    const deployment = definition('io.k8s.api.apps.v1.Deployment');
    const want = json.definitions['io.k8s.api.apps.v1.Deployment']!;
    expect(deployment.description).toBe(want.description);
    expect(deployment.type).toEqual({ value: ['object'] });
    expect(deployment.properties!.additional_properties.map((p) => p.name)).toEqual(
      Object.keys(want.properties),
    );
    expect(property(deployment, 'spec')._ref).toBe(want.properties.spec.$ref);
    expect(property(deployment, 'spec').description).toBe(want.properties.spec.description);
    expect(extension(deployment, 'x-kubernetes-group-version-kind')).toEqual(
      want['x-kubernetes-group-version-kind'],
    );

    const spec = definition('io.k8s.api.apps.v1.DeploymentSpec');
    const wantSpec = json.definitions['io.k8s.api.apps.v1.DeploymentSpec']!;
    expect(spec.required ?? []).toEqual(wantSpec.required ?? []);
    const replicas = property(spec, 'replicas');
    expect(replicas.type).toEqual({ value: [wantSpec.properties.replicas.type] });
    expect(replicas.format).toBe(wantSpec.properties.replicas.format);
  });

  it('keeps lists, maps and their merge keys', () => {
    const podSpec = definition('io.k8s.api.core.v1.PodSpec');
    const want = json.definitions['io.k8s.api.core.v1.PodSpec']!.properties;
    const containers = property(podSpec, 'containers');
    expect(containers.type).toEqual({ value: ['array'] });
    expect(containers.items!.schema).toEqual([{ _ref: want.containers.items.$ref }]);
    expect(extension(containers, 'x-kubernetes-patch-merge-key')).toBe(
      want.containers['x-kubernetes-patch-merge-key'],
    );
    expect(extension(containers, 'x-kubernetes-patch-strategy')).toBe(
      want.containers['x-kubernetes-patch-strategy'],
    );
    const nodeSelector = property(podSpec, 'nodeSelector');
    expect(nodeSelector.type).toEqual({ value: ['object'] });
    expect(nodeSelector.additional_properties!.schema!.type).toEqual({
      value: [want.nodeSelector.additionalProperties.type],
    });
  });

  it('carries enums and defaults as YAML values', () => {
    const withEnum: [string, string, JSONSchema][] = [];
    const withDefault: [string, string, JSONSchema][] = [];
    for (const [name, def] of Object.entries(json.definitions))
      for (const [field, s] of Object.entries((def.properties ?? {}) as Record<string, JSONSchema>)) {
        if (s.enum) withEnum.push([name, field, s]);
        if (s.default !== undefined) withDefault.push([name, field, s]);
      }
    expect(withEnum.length).toBeGreaterThan(0);
    expect(withDefault.length).toBeGreaterThan(0);
    for (const [name, field, s] of withEnum)
      expect(property(definition(name), field).enum!.map((a) => YAML.parse(a.yaml))).toEqual(s.enum);
    for (const [name, field, s] of withDefault)
      expect(YAML.parse(property(definition(name), field).default!.yaml)).toEqual(s.default);
  });

  it('keeps operations, their parameters and responses', () => {
    const path = '/apis/apps/v1/namespaces/{namespace}/deployments/{name}';
    const item = byName(decoded.paths.path, path)!;
    const want = json.paths[path]!;
    expect(item.patch.operation_id).toBe(want.patch.operationId);
    expect(item.patch.consumes).toEqual(want.patch.consumes);
    expect(extension(item.patch, 'x-kubernetes-action')).toBe('patch');
    expect(extension(item.patch, 'x-kubernetes-group-version-kind')).toEqual(
      want.patch['x-kubernetes-group-version-kind'],
    );
    const [name] = item.parameters;
    expect(name.parameter.non_body_parameter.path_parameter_sub_schema).toMatchObject({
      name: 'name',
      in: 'path',
      required: true,
      type: 'string',
    });
    const body = item.put.parameters[0].parameter.body_parameter;
    expect(body).toMatchObject({ name: 'body', in: 'body', required: true });
    expect(body.schema._ref).toBe(want.put.parameters[0].schema.$ref);
    const ok = byName<any>(item.get.responses.response_code, '200');
    expect(ok.response.schema.schema._ref).toBe(want.get.responses['200'].schema.$ref);
    expect(decoded.security_definitions.additional_properties[0]).toEqual({
      name: 'BearerToken',
      value: { api_key_security: { type: 'apiKey', name: 'authorization', in: 'header' } },
    });
    expect(decoded.security).toEqual([{ additional_properties: [{ name: 'BearerToken', value: {} }] }]);
  });
});

describe('the form of /openapi/v2 an Accept header asks for', () => {
  it.each([
    [undefined, 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    ['application/json;q=0.5, */*;q=0.1', 'json'],
    [openAPIv2ProtobufMediaType, 'protobuf'],
    [openAPIv2ProtobufMediaTypeDeprecated, 'protobuf'],
    [`${openAPIv2ProtobufMediaTypeDeprecated}, application/json;q=0.9`, 'protobuf'],
    [`application/json;q=0.5, ${openAPIv2ProtobufMediaType}`, 'protobuf'],
    ['application/vnd.kubernetes.protobuf', undefined],
    ['text/html', undefined],
  ])('%s: %s', (accept, want) => {
    expect(openAPIv2Format(accept)).toBe(want);
  });
});
