import {
  authenticationOptionsFromFlags,
  authorizationOptionsFromFlags,
  clientConnectionOptionsFromFlags,
  leaderElectionOptionsFromFlags,
} from './componentOptions';
import { controllerManagerFlagSets, schedulerFlagSets } from './daemonFlagSets';
import { parseFlags } from './parseFlags';

describe('typed component options', () => {
  it('leader election defaults per daemon', () => {
    expect(leaderElectionOptionsFromFlags(parseFlags([], schedulerFlagSets()).flags)).toEqual({
      leaderElect: true,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      resourceLock: 'endpoints',
      resourceName: 'orch-scheduler',
      resourceNamespace: 'orch-system',
    });
    expect(
      leaderElectionOptionsFromFlags(parseFlags([], controllerManagerFlagSets()).flags).resourceName,
    ).toBe('orch-controller-manager');
  });

  it('the scheduler deprecated lock-object flags apply unless the new ones are given', () => {
    const legacy = parseFlags(
      ['--lock-object-name=old', '--lock-object-namespace=ns'],
      schedulerFlagSets(),
    ).flags;
    expect(leaderElectionOptionsFromFlags(legacy)).toMatchObject({
      resourceName: 'old',
      resourceNamespace: 'ns',
    });
    const both = parseFlags(
      ['--lock-object-name=old', '--leader-elect-resource-name=new'],
      schedulerFlagSets(),
    ).flags;
    expect(leaderElectionOptionsFromFlags(both).resourceName).toBe('new');
  });

  it('client connection defaults per daemon', () => {
    expect(clientConnectionOptionsFromFlags(parseFlags([], schedulerFlagSets()).flags)).toEqual({
      kubeconfig: '',
      master: '',
      qps: 50,
      burst: 100,
      contentType: 'application/vnd.orch.protobuf',
    });
    expect(
      clientConnectionOptionsFromFlags(
        parseFlags(['--master=https://127.0.0.1:6443'], controllerManagerFlagSets()).flags,
      ),
    ).toEqual({
      kubeconfig: '',
      master: 'https://127.0.0.1:6443',
      qps: 20,
      burst: 30,
      contentType: 'application/vnd.orch.protobuf',
    });
  });

  it('authentication and authorization options', () => {
    const flags = parseFlags(
      ['--requestheader-allowed-names=front-proxy'],
      controllerManagerFlagSets(),
    ).flags;
    expect(authenticationOptionsFromFlags(flags)).toEqual({
      kubeconfig: '',
      skipLookup: false,
      tokenWebhookCacheTtlMs: 10_000,
      tolerateLookupFailure: false,
      clientCAFile: '',
      requestHeader: {
        clientCAFile: '',
        allowedNames: ['front-proxy'],
        usernameHeaders: ['x-remote-user'],
        groupHeaders: ['x-remote-group'],
        extraHeaderPrefixes: ['x-remote-extra-'],
      },
    });
    expect(authorizationOptionsFromFlags(flags)).toEqual({
      kubeconfig: '',
      alwaysAllowPaths: ['/healthz'],
      allowCacheTtlMs: 10_000,
      denyCacheTtlMs: 10_000,
    });
  });
});
