import { spawn } from 'node:child_process';
import { eventually, startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import { kubectl, kubectlOK } from '../harness/kubectl';

/** Stock kubectl against orch-apiserver running as its own process on the embedded store. */
describe('kubectl against orch-apiserver', () => {
  let api: APIServerProcess;
  const k = (...args: string[]) => kubectlOK(api.kubeconfig, args);
  const kin = (input: string, ...args: string[]) => kubectlOK(api.kubeconfig, args, input);

  beforeAll(async () => {
    api = await startAPIServerProcess();
    await k('create', 'namespace', 'e2e');
    await k('-n', 'e2e', 'create', 'serviceaccount', 'default');
  }, 60_000);
  afterAll(() => api?.destroy());

  it('reports its version and resources', async () => {
    expect(JSON.parse(await k('get', '--raw', '/version'))).toMatchObject({ major: '1' });
    const resources = await k('api-resources');
    expect(resources).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    expect(resources).toMatch(/^pods\s+po\s+v1\s+true\s+Pod$/m);
    const versions = (await k('api-versions')).split('\n');
    expect(versions).toEqual(
      expect.arrayContaining(['v1', 'apps/v1', 'batch/v1', 'batch/v1beta1', 'rbac.authorization.k8s.io/v1']),
    );
  });

  it('creates every workload kind from manifests and lists them', async () => {
    const manifests = `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, labels: {tier: config}}
data: {a: "1"}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
stringData: {password: hunter2}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: "nginx:1.25", ports: [{containerPort: 80}]}]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: tick}
spec:
  schedule: "*/5 * * * *"
  timeZone: Europe/Berlin
  jobTemplate:
    spec:
      template:
        spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: a, image: busybox}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox, command: [echo, hi]}]}
---
apiVersion: v1
kind: Pod
metadata: {name: solo, labels: {app: solo}}
spec: {containers: [{name: c, image: busybox}]}
`;
    const out = await kin(manifests, '-n', 'e2e', 'create', '-f', '-');
    for (const line of [
      'configmap/settings created',
      'secret/creds created',
      'deployment.apps/web created',
      'cronjob.batch/tick created',
      'daemonset.apps/agent created',
      'job.batch/once created',
      'pod/solo created',
    ]) {
      expect(out).toContain(line);
    }
    const deploys = await k('-n', 'e2e', 'get', 'deployments');
    expect(deploys).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/m);
    expect(deploys).toMatch(/^web\s+0\/2\s+0\s+0\s+\d+s$/m);
    const wide = await k('-n', 'e2e', 'get', 'deployments', '-o', 'wide');
    expect(wide).toMatch(/^web\s+0\/2\s+0\s+0\s+\d+s\s+nginx\s+nginx:1.25\s+app=web$/m);
    expect(await k('-n', 'e2e', 'get', 'cronjob', 'tick', '-o', 'jsonpath={.spec.timeZone}')).toBe(
      'Europe/Berlin',
    );
    const pod = JSON.parse(await k('-n', 'e2e', 'get', 'pod', 'solo', '-o', 'json'));
    expect(pod.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
    });
    expect(pod.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
    });
    expect(pod.status.phase).toBe('Pending');
    const secretYAML = await k('-n', 'e2e', 'get', 'secret', 'creds', '-o', 'yaml');
    expect(secretYAML).toContain(`password: ${Buffer.from('hunter2').toString('base64')}`);
    expect(await k('-n', 'e2e', 'get', 'cm', '-l', 'tier=config', '-o', 'name')).toBe('configmap/settings\n');
    expect(
      await k('-n', 'e2e', 'get', 'pods', '--field-selector', 'status.phase=Pending', '-o', 'name'),
    ).toContain('pod/solo');
    const all = await k('get', 'cm', '-A');
    expect(all).toMatch(/^NAMESPACE\s+NAME\s+DATA\s+AGE$/m);
    expect(all).toMatch(/^e2e\s+settings\s+1\s+/m);
  });

  it('pages lists with --chunk-size', async () => {
    for (let i = 0; i < 5; i++) await k('-n', 'e2e', 'create', 'configmap', `chunk-${i}`);
    const names = (await k('-n', 'e2e', 'get', 'cm', '--chunk-size=2', '-o', 'name')).trim().split('\n');
    expect(names.filter((n) => n.startsWith('configmap/chunk-'))).toHaveLength(5);
  });

  it('labels, annotates, patches, replaces and scales', async () => {
    await k('-n', 'e2e', 'label', 'cm', 'settings', 'color=blue');
    await k('-n', 'e2e', 'annotate', 'cm', 'settings', 'owner=team-a');
    await k('-n', 'e2e', 'patch', 'cm', 'settings', '--type', 'merge', '-p', '{"data":{"b":"2"}}');
    await k(
      '-n',
      'e2e',
      'patch',
      'cm',
      'settings',
      '--type',
      'json',
      '-p',
      '[{"op":"replace","path":"/data/a","value":"9"}]',
    );
    const cm = JSON.parse(await k('-n', 'e2e', 'get', 'cm', 'settings', '-o', 'json'));
    expect(cm.metadata.labels).toEqual({ tier: 'config', color: 'blue' });
    expect(cm.metadata.annotations).toEqual({ owner: 'team-a' });
    expect(cm.data).toEqual({ a: '9', b: '2' });
    cm.data = { only: 'this' };
    await kin(JSON.stringify(cm), '-n', 'e2e', 'replace', '-f', '-');
    expect(JSON.parse(await k('-n', 'e2e', 'get', 'cm', 'settings', '-o', 'json')).data).toEqual({
      only: 'this',
    });
    await k('-n', 'e2e', 'scale', 'deployment', 'web', '--replicas=5');
    expect(JSON.parse(await k('-n', 'e2e', 'get', 'deploy', 'web', '-o', 'json')).spec.replicas).toBe(5);
  });

  it('prints the tables of the scale and status subresources', async () => {
    await k(
      '-n',
      'e2e',
      'patch',
      'deploy',
      'web',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"replicas":4,"readyReplicas":3,"updatedReplicas":4,"availableReplicas":2}}',
    );
    const rows = async (...args: string[]) =>
      (await k('-n', 'e2e', 'get', 'deploy', 'web', ...args))
        .trim()
        .split('\n')
        .map((line) => line.trim().split(/\s{2,}/));
    const scale = await rows('--subresource=scale');
    expect(scale[0]).toEqual(['NAME', 'DESIRED', 'AVAILABLE', 'AGE']);
    expect(scale[1]!.slice(0, 3)).toEqual(['web', '5', '4']);
    const status = await rows('--subresource=status');
    expect(status[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(status[1]!.slice(0, 4)).toEqual(['web', '3/5', '4', '2']);
    expect(
      JSON.parse(await k('-n', 'e2e', 'get', 'deploy', 'web', '--subresource=scale', '-o', 'json')),
    ).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 5 },
      status: { replicas: 4, selector: 'app=web' },
    });
  });

  it('runs --dry-run=server without persisting', async () => {
    await k('-n', 'e2e', 'create', 'cm', 'ghost', '--dry-run=server');
    expect((await kubectl(api.kubeconfig, ['-n', 'e2e', 'get', 'cm', 'ghost'])).code).not.toBe(0);
    await k(
      '-n',
      'e2e',
      'patch',
      'cm',
      'settings',
      '--type',
      'merge',
      '-p',
      '{"data":{"dry":"x"}}',
      '--dry-run=server',
    );
    expect(JSON.parse(await k('-n', 'e2e', 'get', 'cm', 'settings', '-o', 'json')).data.dry).toBeUndefined();
    await k('-n', 'e2e', 'delete', 'cm', 'settings', '--dry-run=server');
    expect(await k('-n', 'e2e', 'get', 'cm', 'settings', '-o', 'name')).toBe('configmap/settings\n');
  });

  it('rejects an unknown field under --validate=strict with a clear error', async () => {
    const r = await kubectl(
      api.kubeconfig,
      ['-n', 'e2e', 'create', '--validate=strict', '-f', '-'],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typo}\ndatta: {a: "1"}\n',
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "datta"',
    );
  });

  it('answers kubectl auth can-i from RBAC', async () => {
    expect((await k('auth', 'can-i', 'create', 'pods')).trim()).toBe('yes');
    const scheduler = api.pki.kubeconfigs.scheduler!;
    const bind = await kubectl(scheduler, [
      'auth',
      'can-i',
      'create',
      'pods',
      '--subresource=binding',
      '-n',
      'e2e',
    ]);
    expect(bind.stdout.trim()).toBe('yes');
    const secrets = await kubectl(scheduler, ['auth', 'can-i', 'delete', 'secrets', '-n', 'e2e']);
    expect(secrets.stdout.trim()).toBe('no');
    expect(secrets.code).toBe(1);
  });

  it('explains fields from the OpenAPI documents', async () => {
    const out = await k('explain', 'deployment.spec.strategy');
    expect(out).toMatch(/KIND:\s+Deployment/);
    expect(out).toMatch(/FIELD:\s+strategy/);
    expect(out).toContain('rollingUpdate');
    // the field's description once: its type, declared without one, adds nothing
    expect(out.split('How existing pods are replaced by new ones.').length).toBe(2);
    const kind = await k('explain', 'deployment');
    expect(kind).toMatch(/DESCRIPTION:\s+The desired state of a replicated application/);
    expect(kind).toMatch(/apiVersion\t<string>\n\s+The versioned schema/);
  });

  it('watches creates, updates and deletes with get -w', async () => {
    // a config map already in the selection is listed first: once its row is printed, the watch is on
    await k('-n', 'e2e', 'create', 'cm', 'watch-anchor');
    await k('-n', 'e2e', 'label', 'cm', 'watch-anchor', 'watch=me');
    const child = spawn(
      'kubectl',
      [
        '--kubeconfig',
        api.kubeconfig,
        '-n',
        'e2e',
        'get',
        'cm',
        '-w',
        '-l',
        'watch=me',
        '--output-watch-events',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await eventually(() => /ADDED\s+watch-anchor/.test(out), 'the listed config map', 15_000);
    await k('-n', 'e2e', 'create', 'cm', 'watched');
    await k('-n', 'e2e', 'label', 'cm', 'watched', 'watch=me');
    await k('-n', 'e2e', 'annotate', 'cm', 'watched', 'seen=yes');
    await k('-n', 'e2e', 'delete', 'cm', 'watched');
    const deadline = Date.now() + 10_000;
    while (!/DELETED\s+watched/.test(out) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    child.kill();
    expect(out).toMatch(/ADDED\s+watched/);
    expect(out).toMatch(/MODIFIED\s+watched/);
    expect(out).toMatch(/DELETED\s+watched/);
  });

  it('deletes with --all and --wait', async () => {
    const out = await k('-n', 'e2e', 'delete', 'cm', '--all', '--wait');
    expect(out).toContain('configmap "chunk-0" deleted');
    expect(await k('-n', 'e2e', 'get', 'cm', '-o', 'name')).toBe('');
  });
});
