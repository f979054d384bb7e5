import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMapKind, EventKind, PodKind, type Container, type Pod } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound, type RestClient } from '@orch/client';
import { containerLogPath, criLogText } from '@orch/node-agent';
import { startAgentCluster, type AgentCluster } from './harness';

function pod(name: string, container: Partial<Container>, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeName: 'proc-0',
      containers: [{ name: 'app', image: 'busybox', ...container }],
      ...spec,
    },
  } as Pod;
}

describe('orch-node-agent --pod-runtime=process against a real apiserver', () => {
  let cluster: AgentCluster;
  let rest: RestClient;
  let root: string;
  const pods = () => clientFor(rest, PodKind, { namespace: 'default' });
  const podWhere = (name: string, ok: (p: Pod) => boolean, what: string, timeoutMs?: number) =>
    eventually(
      async () => {
        const p = await pods().get(name);
        return ok(p) ? p : undefined;
      },
      `${name}: ${what}`,
      timeoutMs,
    );

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'orch-e2e-process-'));
    cluster = await startAgentCluster([
      '--nodes=1',
      '--node-name-prefix=proc',
      '--pod-runtime=process',
      `--root-dir=${root}`,
    ]);
    rest = cluster.rest;
  });

  afterAll(async () => {
    await cluster?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs a command whose env var is expanded, its output in the container log', async () => {
    await clientFor(rest, ConfigMapKind, { namespace: 'default' }).create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'greeting' },
      data: { word: 'hello' },
    });
    await pods().create(
      pod(
        'echo',
        {
          command: ['sh', '-c', 'echo "$(MESSAGE)"'],
          env: [
            { name: 'WORD', valueFrom: { configMapKeyRef: { name: 'greeting', key: 'word' } } },
            { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'MESSAGE', value: '$(WORD) from $(POD)' },
          ],
        },
        { restartPolicy: 'Never' },
      ),
    );
    const done = await podWhere('echo', (p) => p.status?.phase === 'Succeeded', 'Succeeded');
    expect(done.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
    const file = containerLogPath(root, done, 'app', 0);
    expect(existsSync(file)).toBe(true);
    expect(criLogText(readFileSync(file, 'utf8'))).toBe('hello from echo\n');
    const events = await clientFor(rest, EventKind, { namespace: 'default' }).list();
    const started = events.items.find((e) => e.reason === 'Started' && e.involvedObject?.name === 'echo');
    expect(started?.source).toMatchObject({ component: 'kubelet', host: 'proc-0' });
  });

  it('fails a restartPolicy Never pod whose command exits 3', async () => {
    await pods().create(pod('exit3', { command: ['sh', '-c', 'exit 3'] }, { restartPolicy: 'Never' }));
    const failed = await podWhere('exit3', (p) => p.status?.phase === 'Failed', 'Failed');
    expect(failed.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    });
    expect(failed.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
  });

  it('crash-loops a restartPolicy Always pod whose command exits', async () => {
    await pods().create(pod('crash', { command: ['sh', '-c', 'echo crashing; exit 1'] }));
    const backoff = await podWhere(
      'crash',
      (p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff',
      'CrashLoopBackOff',
    );
    expect(backoff.status?.phase).toBe('Running');
    expect(backoff.status?.containerStatuses?.[0]?.lastState?.terminated).toMatchObject({
      exitCode: 1,
      reason: 'Error',
    });
    // The first restart comes after the 10 s crash back-off.
    const restarted = await podWhere(
      'crash',
      (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
      'a restart',
      30_000,
    );
    expect(restarted.status?.containerStatuses?.[0]?.restartCount).toBeGreaterThanOrEqual(1);
  }, 45_000);

  it('reports the termination message the process wrote', async () => {
    await pods().create(
      pod(
        'message',
        { command: ['sh', '-c', 'printf "all done" > "$ORCH_TERMINATION_MESSAGE_PATH"'] },
        { restartPolicy: 'Never' },
      ),
    );
    const done = await podWhere('message', (p) => p.status?.phase === 'Succeeded', 'Succeeded');
    expect(done.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
      message: 'all done',
    });
  });

  it('stops the processes of a deleted pod and deletes it', async () => {
    await pods().create(pod('sleeper', { command: ['sleep', '60'] }, { terminationGracePeriodSeconds: 5 }));
    await podWhere('sleeper', (p) => p.status?.phase === 'Running', 'Running');
    await pods().delete('sleeper');
    await eventually(
      () =>
        pods()
          .get('sleeper')
          .then(() => undefined)
          .catch((err: unknown) => (isNotFound(err) ? true : undefined)),
      'the pod to be gone',
    );
  });
});
