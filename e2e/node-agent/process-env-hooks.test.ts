import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@orch/apiserver';
import { startServingCluster, type ServingCluster } from './servingCluster';

/**
 * What a process-runtime node agent gives containers as the kubelet does, seen through `kubectl logs`:
 * resource and service link variables, postStart and preStop hooks.
 */
describe('process runtime: container env and lifecycle hooks', () => {
  let cluster: ServingCluster;
  let scratch: string;
  const run = (args: string[], input?: string) => cluster.run(args, input);

  beforeAll(async () => {
    cluster = await startServingCluster('hooks');
    scratch = mkdtempSync(join(tmpdir(), 'orch-e2e-hooks-scratch-'));
    // a Service made before the pods that get its variables
    const svc = await run(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'my-db', namespace: 'default' },
        spec: { selector: { app: 'db' }, ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] },
      }),
    );
    expect(svc.code).toBe(0);
    await cluster.startAgent('hooks', 'process', [
      '--node-cpu=3',
      '--node-memory=8Gi',
      '--node-reserved=cpu=500m',
    ]);
  }, 60_000);

  afterAll(async () => {
    await cluster?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const createPod = async (name: string, spec: Record<string, unknown>) => {
    const r = await run(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default' },
        spec: { nodeName: 'hooks-0', restartPolicy: 'Never', ...spec },
      }),
    );
    expect(r).toMatchObject({ code: 0 });
  };

  const sh = (script: string, extra: Record<string, unknown> = {}) => ({
    name: 'app',
    image: 'busybox',
    command: ['sh', '-c', script],
    ...extra,
  });

  const phase = (name: string, want: string) =>
    eventually(async () => {
      const r = await run(['get', 'pod', name, '-o', 'jsonpath={.status.phase}']);
      return r.stdout === want ? true : undefined;
    }, `${name} ${want}`);

  const logs = async (args: string[]) => {
    const r = await run(['logs', ...args]);
    expect(r).toMatchObject({ code: 0 });
    return r.stdout;
  };

  it("sets resourceFieldRef variables, a limit left unset being the node's allocatable", async () => {
    const ref = (resource: string, divisor?: string) => ({
      valueFrom: { resourceFieldRef: { resource, ...(divisor ? { divisor } : {}) } },
    });
    await createPod('resources', {
      containers: [
        sh('echo "$MEM_LIMIT $MEM_REQUEST $CPU_REQUEST $CPU_LIMIT $CPU_LIMIT_CORES $MEM_BYTES"', {
          resources: { limits: { memory: '64Mi' }, requests: { cpu: '250m' } },
          env: [
            { name: 'MEM_LIMIT', ...ref('limits.memory', '1Mi') },
            { name: 'MEM_REQUEST', ...ref('requests.memory', '1Mi') },
            { name: 'CPU_REQUEST', ...ref('requests.cpu', '1m') },
            { name: 'CPU_LIMIT', ...ref('limits.cpu', '1m') },
            { name: 'CPU_LIMIT_CORES', ...ref('limits.cpu') },
            { name: 'MEM_BYTES', ...ref('limits.memory') },
          ],
        }),
      ],
    });
    await phase('resources', 'Succeeded');
    // requests.memory defaults to its limit; limits.cpu is the node's allocatable 2500m, 3 rounded up
    expect(await logs(['resources'])).toBe(`64 64 250 2500 3 ${64 * 1024 * 1024}\n`);
  }, 60_000);

  it('sets the service link variables of the namespace and of the kubernetes service', async () => {
    const ip = (await run(['get', 'service', 'my-db', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
    const k8s = (await run(['get', 'service', 'kubernetes', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
    expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    await createPod('links', {
      containers: [
        sh(
          'echo "$MY_DB_SERVICE_HOST $MY_DB_SERVICE_PORT $MY_DB_SERVICE_PORT_PG $MY_DB_PORT $MY_DB_PORT_5432_TCP_ADDR"; ' +
            'echo "$KUBERNETES_SERVICE_HOST $KUBERNETES_SERVICE_PORT $KUBERNETES_PORT_443_TCP_PROTO"; echo "$URL $MINE"',
          {
            env: [
              { name: 'URL', value: 'postgres://$(MY_DB_SERVICE_HOST):$(MY_DB_SERVICE_PORT)/app' },
              { name: 'MINE', value: 'overridden' },
              { name: 'MY_DB_SERVICE_PORT_PG', value: '6543' },
            ],
          },
        ),
      ],
    });
    await phase('links', 'Succeeded');
    expect(await logs(['links'])).toBe(
      `${ip} 5432 6543 tcp://${ip}:5432 ${ip}\n${k8s} 443 tcp\npostgres://${ip}:5432/app overridden\n`,
    );
    await createPod('nolinks', {
      enableServiceLinks: false,
      containers: [sh('echo "${MY_DB_SERVICE_HOST:-none} $KUBERNETES_SERVICE_PORT"')],
    });
    await phase('nolinks', 'Succeeded');
    expect(await logs(['nolinks'])).toBe('none 443\n');
  }, 60_000);

  it('runs a postStart hook right after the container starts', async () => {
    await createPod('poststart', {
      containers: [
        sh('while [ ! -f hooked ]; do sleep 0.1; done; cat hooked', {
          env: [{ name: 'WHO', value: 'the hook' }],
          lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo "written by $WHO" > hooked'] } } },
        }),
      ],
    });
    await phase('poststart', 'Succeeded');
    expect(await logs(['poststart'])).toBe('written by the hook\n');
  }, 60_000);

  it('kills a container whose postStart hook fails, with the FailedPostStartHook event', async () => {
    await createPod('badhook', {
      containers: [
        sh('echo started; sleep 30', {
          lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 3'] } } },
        }),
      ],
    });
    await phase('badhook', 'Failed');
    expect(await logs(['badhook'])).toBe('started\n');
    const events = await eventually(async () => {
      const r = await run([
        'get',
        'events',
        '--field-selector',
        'involvedObject.name=badhook',
        '-o',
        'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}',
      ]);
      return r.stdout.includes('FailedPostStartHook: PostStartHook failed') ? r.stdout : undefined;
    }, 'the FailedPostStartHook event');
    expect(events).toContain('Killing: FailedPostStartHook');
    const exit = await run([
      'get',
      'pod',
      'badhook',
      '-o',
      'jsonpath={.status.containerStatuses[0].state.terminated.exitCode}',
    ]);
    expect(exit.stdout).toBe('143');
  }, 60_000);

  it('runs the preStop hook before SIGTERM when a liveness probe fails, and on deletion', async () => {
    // the trap prints what the preStop hook wrote, in the run that `kubectl logs --previous` shows
    await createPod('prestop', {
      restartPolicy: 'Always',
      containers: [
        sh(
          'rm -f prestop; echo started; trap \'echo "TERM after $(cat prestop 2>/dev/null || echo nothing)"; exit 0\' TERM; ' +
            'while :; do sleep 0.1; done',
          {
            lifecycle: { preStop: { exec: { command: ['sh', '-c', 'echo preStop > prestop'] } } },
            livenessProbe: {
              exec: { command: ['false'] },
              initialDelaySeconds: 1,
              periodSeconds: 1,
              failureThreshold: 1,
            },
          },
        ),
      ],
    });
    await eventually(async () => {
      const r = await run([
        'get',
        'pod',
        'prestop',
        '-o',
        'jsonpath={.status.containerStatuses[0].restartCount}',
      ]);
      return Number(r.stdout) >= 1 ? true : undefined;
    }, 'a restart');
    expect(await logs(['prestop', '--previous'])).toBe('started\nTERM after preStop\n');

    const trace = join(scratch, 'trace');
    await createPod('deleted', {
      terminationGracePeriodSeconds: 10,
      containers: [
        sh(`trap 'echo TERM >> ${trace}; exit 0' TERM; echo up; while :; do sleep 0.1; done`, {
          lifecycle: { preStop: { exec: { command: ['sh', '-c', `sleep 1; echo preStop >> ${trace}`] } } },
        }),
      ],
    });
    await phase('deleted', 'Running');
    expect(await run(['delete', 'pod', 'deleted', '--wait=true'])).toMatchObject({ code: 0 });
    expect(readFileSync(trace, 'utf8')).toBe('preStop\nTERM\n');
  }, 90_000);
});
