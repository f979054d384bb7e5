import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import { kubectl, kubectlOK } from '../harness/kubectl';

const deployment = (replicas: number, containers: string[]) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: e2e
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
${containers.map((c) => `      - name: ${c}\n        image: ${c}:1`).join('\n')}
`;

/** Stock kubectl's client-side and server-side apply against orch-apiserver as a process. */
describe('kubectl apply', () => {
  let api: APIServerProcess;
  let dir: string;
  const k = (...args: string[]) => kubectlOK(api.kubeconfig, args);
  const manifest = (name: string, text: string): string => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-apply-'));
    api = await startAPIServerProcess();
    await k('create', 'namespace', 'e2e');
  }, 60_000);
  afterAll(async () => {
    await api?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies server-side, reports conflicts as kubectl shows them and forces them', async () => {
    const file = manifest('ssa.yaml', deployment(2, ['nginx']));
    expect(await k('apply', '--server-side', '-f', file)).toMatch(/deployment.apps\/web serverside-applied/);
    const other = manifest('other.yaml', deployment(3, ['nginx']));
    const conflict = await kubectl(api.kubeconfig, [
      'apply',
      '--server-side',
      '--field-manager=other',
      '-f',
      other,
    ]);
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain(
      'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
    );
    expect(conflict.stderr).toContain('--force-conflicts');
    await k('apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', other);
    expect(await k('-n', 'e2e', 'get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}')).toBe('3');

    const shown = await k('-n', 'e2e', 'get', 'deploy', 'web', '-o', 'yaml', '--show-managed-fields');
    expect(shown).toContain('managedFields:');
    expect(shown).toMatch(/manager: other\n\s+operation: Apply/);
    expect(shown).toMatch(/manager: kubectl\n\s+operation: Apply/);
    expect(shown).toContain('k:{"name":"nginx"}:');
    const hidden = await k('-n', 'e2e', 'get', 'deploy', 'web', '-o', 'yaml');
    expect(hidden).not.toContain('managedFields:');
  }, 60_000);

  it('prunes a removed list item on a second client-side apply and diffs pending changes', async () => {
    const file = manifest('csa.yaml', deployment(1, ['a', 'b']).replace(/name: web/, 'name: csa'));
    await k('apply', '-f', file);
    const containers = () =>
      k('-n', 'e2e', 'get', 'deploy', 'csa', '-o', 'jsonpath={.spec.template.spec.containers[*].name}');
    expect(await containers()).toBe('a b');
    const fewer = manifest('csa.yaml', deployment(1, ['a']).replace(/name: web/, 'name: csa'));

    const diff = await kubectl(api.kubeconfig, ['diff', '-f', fewer]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^-\s+- image: b:1$/m);

    await k('apply', '-f', fewer);
    expect(await containers()).toBe('a');
    const managers = await k(
      '-n',
      'e2e',
      'get',
      'deploy',
      'csa',
      '-o',
      'jsonpath={.metadata.managedFields[*].manager}',
    );
    expect(managers).toBe('kubectl-client-side-apply');

    const same = await kubectl(api.kubeconfig, ['diff', '-f', fewer]);
    expect(same.code).toBe(0);
    expect(same.stdout).toBe('');

    // moving to server-side apply takes over the client-side applied fields without conflicts
    const scaled = manifest('csa.yaml', deployment(4, ['a']).replace(/name: web/, 'name: csa'));
    await k('apply', '--server-side', '-f', scaled);
    expect(await k('-n', 'e2e', 'get', 'deploy', 'csa', '-o', 'jsonpath={.spec.replicas}')).toBe('4');
    const lastApplied = await k(
      '-n',
      'e2e',
      'get',
      'deploy',
      'csa',
      '-o',
      'jsonpath={.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}',
    );
    expect(JSON.parse(lastApplied).spec.replicas).toBe(4);
  }, 60_000);

  it('prunes the labelled objects a manifest no longer holds with --prune', async () => {
    // kubectl's default prune list names the kinds Kubernetes serves, Ingress among them: with one
    // missing, --prune stops before applying anything
    const configMap = (name: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: e2e, labels: {set: pruned}}\ndata: {k: v}\n`;
    const both = manifest('prune.yaml', `${configMap('keep')}---\n${configMap('drop')}`);
    await k('apply', '-f', both, '-l', 'set=pruned', '--prune');
    const one = manifest('prune.yaml', configMap('keep'));
    expect(await k('apply', '-f', one, '-l', 'set=pruned', '--prune')).toMatch(/configmap\/drop pruned/);
    expect((await k('-n', 'e2e', 'get', 'cm', '-l', 'set=pruned', '-o', 'name')).trim()).toBe(
      'configmap/keep',
    );
  }, 60_000);
});
