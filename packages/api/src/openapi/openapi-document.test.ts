import type { TSchema } from '@sinclair/typebox';
import { allKinds } from '../kinds';
import { RESTMapper } from '../restmapping/rest-mapper';
import { buildOpenAPIv2, buildOpenAPIv3, openAPIv3PathOf } from './openapi-document';
import { SchemaConverter } from './schema-to-openapi';

type Doc = {
  paths: Record<string, Record<string, { consumes?: string[]; requestBody?: { content: object } }>>;
};

describe('the patch content types the OpenAPI documents offer', () => {
  const mappings = new RESTMapper(allKinds).all();
  const core = mappings.filter((m) => openAPIv3PathOf(m.gvk.group, m.gvk.version) === 'api/v1');
  const info = { title: 'orch', version: 'test' };
  const item = '/api/v1/namespaces/{namespace}/configmaps/{name}';
  const status = '/api/v1/namespaces/{namespace}/pods/{name}/status';
  const others = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
  ];

  it('include apply patches by default, for objects and their status', () => {
    const v2 = buildOpenAPIv2(mappings, info) as Doc;
    expect(v2.paths[item]!.patch!.consumes).toEqual([...others, 'application/apply-patch+yaml']);
    expect(v2.paths[status]!.patch!.consumes).toEqual([...others, 'application/apply-patch+yaml']);
    const v3 = buildOpenAPIv3(core, info) as Doc;
    expect(Object.keys(v3.paths[item]!.patch!.requestBody!.content)).toEqual([
      ...others,
      'application/apply-patch+yaml',
    ]);
  });

  it('leave them out when the server does not serve apply', () => {
    const v2 = buildOpenAPIv2(mappings, info, { applyPatch: false }) as Doc;
    expect(v2.paths[item]!.patch!.consumes).toEqual(others);
    expect(v2.paths[status]!.patch!.consumes).toEqual(others);
    const v3 = buildOpenAPIv3(core, info, { applyPatch: false }) as Doc;
    expect(Object.keys(v3.paths[item]!.patch!.requestBody!.content)).toEqual(others);
  });
});

type Schemas = Record<
  string,
  { description?: string; properties?: Record<string, { description?: string }> }
>;

describe('the descriptions kubectl explain prints', () => {
  const mappings = new RESTMapper(allKinds).all();
  const info = { title: 'orch', version: 'test' };
  const v3 = (group: string, version: string) =>
    buildOpenAPIv3(
      mappings.filter((m) => m.gvk.group === group && m.gvk.version === version),
      info,
    ) as unknown as { components: { schemas: Schemas } };

  it('describe every kind, and its apiVersion and kind fields', () => {
    const undescribed: string[] = [];
    for (const m of mappings) {
      const schemas = v3(m.gvk.group, m.gvk.version).components.schemas;
      const root = Object.values(schemas).find((s) =>
        (s as { 'x-kubernetes-group-version-kind'?: { kind: string }[] })[
          'x-kubernetes-group-version-kind'
        ]?.some((gvk) => gvk.kind === m.gvk.kind),
      );
      if (
        !root?.description ||
        !root.properties?.apiVersion?.description ||
        !root.properties.kind?.description
      )
        undescribed.push(`${m.gvk.group}/${m.gvk.version} ${m.gvk.kind}`);
    }
    expect(undescribed).toEqual([]);
  });

  it('give a struct its own description, not that of the first field holding it', () => {
    const schemas = v3('apps', 'v1').components.schemas;
    const spec = schemas['io.k8s.api.apps.v1.DeploymentSpec']!;
    const strategy = spec.properties!.strategy!;
    expect(strategy.description).toBe('How existing pods are replaced by new ones.');
    // DeploymentStrategy is declared without a description: explain prints the field's alone
    expect(schemas['io.k8s.api.apps.v1.DeploymentStrategy']!.description).toBeUndefined();
    expect(schemas['io.k8s.api.apps.v1.Deployment']!.description).toMatch(/replicated application/);
  });
});

describe('objects of no name (custom resources)', () => {
  it('carry their fields and required list in place, in both dialects', () => {
    const root = {
      type: 'object',
      'x-orch-name': 'com.example.v1.Widget',
      properties: {
        spec: {
          type: 'object',
          description: 'The widget.',
          required: ['size'],
          properties: {
            size: { type: 'string', description: 'How big.' },
            parts: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
          },
        },
      },
    } as unknown as TSchema;
    for (const dialect of ['v2', 'v3'] as const) {
      const converter = new SchemaConverter(dialect);
      converter.define(root);
      const widget = converter.definitions['com.example.v1.Widget'] as { properties: { spec: unknown } };
      const spec = widget.properties.spec;
      expect(spec).toEqual({
        type: 'object',
        description: 'The widget.',
        required: ['size'],
        properties: {
          size: { type: 'string', description: 'How big.' },
          parts: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      });
    }
  });
});
