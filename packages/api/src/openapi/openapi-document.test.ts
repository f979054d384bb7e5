import { allKinds } from '../kinds';
import { RESTMapper } from '../restmapping/rest-mapper';
import { buildOpenAPIv2, buildOpenAPIv3, openAPIv3PathOf } from './openapi-document';

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
