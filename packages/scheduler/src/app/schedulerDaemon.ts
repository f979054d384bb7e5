import { daemonValidators, withDelegatedAuth, type DaemonSpec } from '@orch/component-base';
import { buildSchedulerConfig, type SchedulerConfiguration } from './schedulerConfig';
import { NOTICE_ONLY_FLAGS, orchSchedulerFlagSets } from './schedulerFlags';
import { runScheduler } from './runScheduler';

/**
 * The orch-scheduler daemon for runDaemon; its secure port authenticates and authorizes through the
 * apiserver (--authentication-kubeconfig, --authorization-kubeconfig), as kube-scheduler's.
 */
export function schedulerDaemon(): DaemonSpec<SchedulerConfiguration> {
  return withDelegatedAuth({
    name: 'orch-scheduler',
    description:
      'The orch scheduler is a control plane process which assigns Pods to Nodes. It determines which Nodes are valid placements for each Pod in the scheduling queue according to constraints and available resources, ranks each valid Node and binds the Pod to a suitable Node.',
    flagSets: orchSchedulerFlagSets(),
    validators: daemonValidators('scheduler'),
    buildConfig: (flags) => buildSchedulerConfig(flags),
    run: runScheduler,
    noticeOnlyFlags: NOTICE_ONLY_FLAGS,
    insecureServing: true,
  });
}
