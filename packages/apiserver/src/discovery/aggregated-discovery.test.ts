import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';
import { aggregatedDiscoveryVersion } from './discovery';

const run = promisify(execFile);
const v2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const v2beta1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

describe('aggregated discovery', () => {
  it('chooses the document from the Accept header in order of preference', () => {
    expect(aggregatedDiscoveryVersion(`${v2},${v2beta1},application/json`)).toBe('v2');
    expect(aggregatedDiscoveryVersion(`${v2beta1},application/json`)).toBe('v2beta1');
    expect(
      aggregatedDiscoveryVersion('application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList'),
    ).toBeUndefined();
    expect(aggregatedDiscoveryVersion(`application/json,${v2}`)).toBeUndefined();
    expect(aggregatedDiscoveryVersion(`${v2};q=0.5,application/json;q=0.9`)).toBeUndefined();
    expect(aggregatedDiscoveryVersion(undefined)).toBeUndefined();
  });

  describe('served', () => {
    let s: TestAPIServer;
    const req = (path: string, accept?: string) =>
      httpsRequest(s.url + path, { ca: s.ca, headers: accept ? { Accept: accept } : {} });

    beforeAll(async () => {
      s = await startTestAPIServer({ admissionPlugins: [] });
    });
    afterAll(() => s.close());

    it('answers /apis with the APIGroupDiscoveryList in the version asked for', async () => {
      for (const [accept, version] of [
        [v2, 'v2'],
        [v2beta1, 'v2beta1'],
      ] as const) {
        const res = await req('/apis', `${accept},application/json`);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe(accept);
        expect(res.headers.vary).toBe('Accept');
        expect(res.json).toMatchObject({
          kind: 'APIGroupDiscoveryList',
          apiVersion: `apidiscovery.k8s.io/${version}`,
        });
        const apps = res.json.items.find((g: any) => g.metadata.name === 'apps');
        expect(apps.versions[0].version).toBe('v1');
        expect(apps.versions[0].freshness).toBe('Current');
        const deployments = apps.versions[0].resources.find((r: any) => r.resource === 'deployments');
        expect(deployments).toMatchObject({
          responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
          scope: 'Namespaced',
          singularResource: 'deployment',
          shortNames: ['deploy'],
          categories: ['all'],
        });
        expect(deployments.verbs).toEqual(
          expect.arrayContaining(['create', 'get', 'list', 'watch', 'deletecollection']),
        );
        expect(deployments.subresources).toEqual(
          expect.arrayContaining([
            {
              subresource: 'scale',
              responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
              verbs: ['get', 'patch', 'update'],
            },
            {
              subresource: 'status',
              responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
              verbs: ['get', 'patch', 'update'],
            },
          ]),
        );
        expect(res.json.items.some((g: any) => !g.metadata.name)).toBe(false);
      }
    });

    it('answers /api with the core group, cluster-scoped kinds marked Cluster', async () => {
      const res = await req('/api', v2);
      expect(res.headers['content-type']).toBe(v2);
      expect(res.json.items).toHaveLength(1);
      const [core] = res.json.items;
      expect(core.metadata.name).toBeUndefined();
      const resources = core.versions[0].resources;
      expect(resources.find((r: any) => r.resource === 'namespaces')).toMatchObject({
        scope: 'Cluster',
        singularResource: 'namespace',
        shortNames: ['ns'],
      });
      const pods = resources.find((r: any) => r.resource === 'pods');
      expect(pods.subresources.map((x: any) => x.subresource)).toEqual(
        expect.arrayContaining(['binding', 'eviction', 'status', 'log']),
      );
      expect(pods.subresources.find((x: any) => x.subresource === 'eviction').responseKind).toEqual({
        group: 'policy',
        version: 'v1',
        kind: 'Eviction',
      });
    });

    it('keeps the plain documents for plain JSON requests', async () => {
      const apis = await req('/apis', 'application/json');
      expect(apis.headers['content-type']).toBe('application/json');
      expect(apis.json.kind).toBe('APIGroupList');
      const api = await req('/api');
      expect(api.json.kind).toBe('APIVersions');
    });

    it('is what stock kubectl asks for and uses', async () => {
      const { stdout, stderr } = await run(
        'kubectl',
        ['--kubeconfig', s.kubeconfig, '--cache-dir', join(s.dir, 'kube-cache'), 'api-resources', '-v=8'],
        { env: { ...process.env, KUBECONFIG: '' }, maxBuffer: 64 * 1024 * 1024 },
      );
      expect(stderr).toMatch(
        /Accept: application\/json;g=apidiscovery\.k8s\.io;v=v2(beta1)?;as=APIGroupDiscoveryList/,
      );
      expect(stderr).toMatch(
        /Content-Type: application\/json;g=apidiscovery\.k8s\.io;v=v2(beta1)?;as=APIGroupDiscoveryList/,
      );
      // everything came from the aggregated documents: no per-group-version fetches
      expect(stderr).not.toMatch(/GET https:\/\/[^ ]+\/apis\/apps\/v1 /);
      expect(stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
      expect(stdout).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
    });
  });
});
