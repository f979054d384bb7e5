import { startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import { kubectl, kubectlOK } from '../harness/kubectl';

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              image: {type: string}
              replicas: {type: integer, minimum: 0}
              tags:
                type: array
                items: {type: string}
                x-kubernetes-list-type: set
          status:
            type: object
            properties:
              replicas: {type: integer}
`;

const cronTab = (cronSpec: string) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-cron
spec:
  cronSpec: "${cronSpec}"
  image: my-image
  replicas: 1
`;

/** Stock kubectl with CustomResourceDefinitions and their custom resources against orch-apiserver. */
describe('kubectl with CustomResourceDefinitions', () => {
  let api: APIServerProcess;
  const k = (...args: string[]) => kubectlOK(api.kubeconfig, ['-n', 'crs', ...args]);
  /** kubectl reading a manifest from standard input (`-f -`). */
  const kin = (input: string, ...args: string[]) => kubectlOK(api.kubeconfig, ['-n', 'crs', ...args], input);

  beforeAll(async () => {
    api = await startAPIServerProcess();
    await kubectlOK(api.kubeconfig, ['create', 'namespace', 'crs']);
  }, 60_000);
  afterAll(async () => {
    await api?.destroy();
  });

  it('applies a definition and waits for it to be established', async () => {
    expect(await kubectlOK(api.kubeconfig, ['apply', '-f', '-'], crd)).toBe(
      'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n',
    );
    const waited = await kubectlOK(api.kubeconfig, [
      'wait',
      '--for',
      'condition=established',
      '--timeout=30s',
      'crd/crontabs.stable.example.com',
    ]);
    expect(waited).toContain('condition met');
    const listed = await kubectlOK(api.kubeconfig, ['get', 'crd']);
    expect(listed.split('\n')[0]).toMatch(/^NAME\s+CREATED AT$/);
    expect(listed).toContain('crontabs.stable.example.com');
  }, 60_000);

  it('applies a custom resource twice, client-side, changing a field', async () => {
    expect(await kin(cronTab('* * * * */5'), 'apply', '-f', '-')).toBe(
      'crontab.stable.example.com/my-cron created\n',
    );
    expect(await kin(cronTab('* * * * */10'), 'apply', '-f', '-')).toBe(
      'crontab.stable.example.com/my-cron configured\n',
    );
    const got = JSON.parse(await k('get', 'crontab', 'my-cron', '-o', 'json'));
    expect(got.spec.cronSpec).toBe('* * * * */10');
    expect(got.metadata.generation).toBe(2);
  }, 60_000);

  it('prints the printer columns and answers short names and YAML', async () => {
    const table = await k('get', 'crontabs');
    const [header, row] = table.trim().split('\n');
    expect(header).toMatch(/^NAME\s+SPEC\s+REPLICAS\s+AGE$/);
    expect(row).toMatch(/^my-cron\s+\* \* \* \* \*\/10\s+1\s+\d+s$/);
    const yaml = await k('get', 'ct', 'my-cron', '-o', 'yaml');
    expect(yaml).toContain('apiVersion: stable.example.com/v1');
    expect(yaml).toContain('kind: CronTab');
    expect(await k('get', 'CronTab', '-o', 'name')).toBe('crontab.stable.example.com/my-cron\n');
  }, 60_000);

  it('applies server-side with managed fields and scales', async () => {
    const applied = await kin(
      `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: ssa}\nspec: {cronSpec: "1 * * * *", tags: [a, b]}\n`,
      'apply',
      '--server-side',
      '--field-manager=tester',
      '-f',
      '-',
    );
    expect(applied).toBe('crontab.stable.example.com/ssa serverside-applied\n');
    const got = JSON.parse(await k('get', 'crontab', 'ssa', '-o', 'json', '--show-managed-fields'));
    const entry = got.metadata.managedFields.find((m: { manager: string }) => m.manager === 'tester');
    expect(entry).toMatchObject({ operation: 'Apply', apiVersion: 'stable.example.com/v1' });
    expect(entry.fieldsV1['f:spec']).toMatchObject({
      'f:cronSpec': {},
      'f:tags': { 'v:"a"': {}, 'v:"b"': {} },
    });
    expect(await k('scale', 'crontab', 'my-cron', '--replicas=3')).toBe(
      'crontab.stable.example.com/my-cron scaled\n',
    );
    expect(JSON.parse(await k('get', 'crontab', 'my-cron', '-o', 'json')).spec.replicas).toBe(3);
  }, 60_000);

  it('keeps serving the custom resources after a restart', async () => {
    await api.stop();
    await api.restart();
    const got = JSON.parse(await k('get', 'crontab', 'my-cron', '-o', 'json'));
    expect(got.spec.replicas).toBe(3);
  }, 90_000);

  it('deletes the custom resources with the definition', async () => {
    await kubectlOK(api.kubeconfig, ['delete', 'crd', 'crontabs.stable.example.com']);
    const r = await kubectl(api.kubeconfig, ['-n', 'crs', 'get', 'crontabs']);
    expect(r.code).not.toBe(0);
    // kubectl's discovery cache may still name the resource; the server no longer serves it
    expect(r.stderr).toMatch(
      /the server doesn't have a resource type "crontabs"|the server could not find the requested resource/,
    );
    // defined again, the resource has none of the old objects
    await kubectlOK(api.kubeconfig, ['apply', '-f', '-'], crd);
    await kubectlOK(api.kubeconfig, [
      'wait',
      '--for',
      'condition=established',
      '--timeout=30s',
      'crd/crontabs.stable.example.com',
    ]);
    const again = await kubectl(api.kubeconfig, ['get', 'crontabs', '-A']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('No resources found');
  }, 60_000);
});
