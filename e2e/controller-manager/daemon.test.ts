import { EventEmitter } from 'node:events';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import { AnnotationLock, loadKubeconfigFile, restConfigFromKubeconfig, RestClient } from '@orch/client';
import { runDaemon } from '@orch/component-base';
import { controllerManagerDaemon } from '@orch/controller-manager';

jest.setTimeout(60_000);

function env(argv: string[]): {
  out: string[];
  signals: EventEmitter;
  exit: jest.Mock;
  run: () => Promise<number>;
} {
  const out: string[] = [];
  const signals = new EventEmitter();
  const exit = jest.fn();
  return {
    out,
    signals,
    exit,
    run: () =>
      runDaemon(controllerManagerDaemon(), {
        argv,
        stdout: { write: (t: string) => out.push(t) },
        stderr: { write: (t: string) => out.push(t) },
        exit,
        signals,
      }),
  };
}

test('an unknown controller name is an error naming it', async () => {
  const e = env([
    '--controllers=*,nosuch',
    '--secure-port=0',
    '--master=https://127.0.0.1:1',
    '--leader-elect=false',
  ]);
  expect(await e.run()).toBe(1);
  expect(e.out.join('')).toContain('"nosuch" is not in the list of known controllers');
});

test('--help lists the controller flags', async () => {
  const e = env(['--help']);
  expect(await e.run()).toBe(0);
  const help = e.out.join('');
  for (const flag of [
    '--controllers',
    '--concurrent-deployment-syncs',
    '--use-service-account-credentials',
    '--leader-elect-resource-lock',
  ]) {
    expect(help).toContain(flag);
  }
});

describe('against an apiserver', () => {
  let api: TestAPIServer;
  let rest: RestClient;
  beforeAll(async () => {
    api = await startTestAPIServer({ admissionPlugins: [] });
    rest = new RestClient(restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config);
  });
  afterAll(async () => {
    rest?.close();
    await api?.close();
  });

  test('leader election takes the endpoints lock orch-system/orch-controller-manager, then controllers run', async () => {
    const e = env([
      `--kubeconfig=${api.kubeconfig}`,
      '--secure-port=0',
      '--orch-api-content-type=application/json',
      '--leader-elect-retry-period=200ms',
      '--leader-elect-renew-deadline=2s',
      '--leader-elect-lease-duration=3s',
      '--controllers=serviceaccount,namespace',
    ]);
    const done = e.run();
    // Read as a stock client reads it: the record in the Endpoints' leader annotation.
    const lock = new AnnotationLock(rest, 'endpoints', {
      namespace: 'orch-system',
      name: 'orch-controller-manager',
      identity: '',
    });
    const { record } = await eventually(() => lock.get(), 'the lock', 15_000);
    expect(record.holderIdentity).toBeTruthy();
    // The serviceaccount controller runs: a new namespace gets its default account.
    await rest
      .post()
      .version('v1')
      .resource('namespaces')
      .body({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'le-test' } })
      .do();
    await eventually(
      async () =>
        rest.get().version('v1').namespace('le-test').resource('serviceaccounts').name('default').do(),
      'default SA',
      15_000,
    );
    e.signals.emit('SIGTERM');
    expect(await done).toBe(0);
    // and gave the lock up on the way out
    expect((await lock.get()).record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });

  test('only the leader runs controllers; a standby takes over as soon as the leader stops', async () => {
    // a lease far longer than the wait below: the standby leads because the leader released it
    const args = [
      `--kubeconfig=${api.kubeconfig}`,
      '--secure-port=0',
      '--orch-api-content-type=application/json',
      '--leader-elect-retry-period=200ms',
      '--leader-elect-renew-deadline=20s',
      '--leader-elect-lease-duration=30s',
      '--leader-elect-resource-name=standby-test',
      '--controllers=serviceaccount',
    ];
    const a = env(args);
    const doneA = a.run();
    await eventually(
      () => a.out.join('').includes('Started "serviceaccount"'),
      'the first manager to lead',
      15_000,
    );
    // a controller's log line names the code that logged it, not the manager's logging wrapper
    expect(a.out.join('')).toMatch(/ ControllerGroup\.[jt]s:\d+\] Started "serviceaccount"/);
    const b = env(args);
    const doneB = b.run();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(b.out.join('')).not.toContain('Started "serviceaccount"');
    a.signals.emit('SIGTERM');
    expect(await doneA).toBe(0);
    await eventually(
      () => b.out.join('').includes('Started "serviceaccount"'),
      'the standby to take over',
      5_000,
    );
    b.signals.emit('SIGTERM');
    expect(await doneB).toBe(0);
  });

  // The token request itself needs the apiserver's serviceaccounts/token subresource (not served yet).
  test('--use-service-account-credentials: each controller gets its service account in orch-system, named as in Kubernetes', async () => {
    const e = env([
      `--kubeconfig=${api.kubeconfig}`,
      '--secure-port=0',
      '--orch-api-content-type=application/json',
      '--leader-elect=false',
      '--use-service-account-credentials',
      '--controllers=serviceaccount',
    ]);
    const done = e.run();
    await eventually(
      async () =>
        rest
          .get()
          .version('v1')
          .namespace('orch-system')
          .resource('serviceaccounts')
          .name('service-account-controller')
          .do(),
      'the controller service account',
      15_000,
    );
    e.signals.emit('SIGTERM');
    expect(await done).toBe(0);
  });
});
