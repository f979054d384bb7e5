import {
  COMMON_NOTICE_ONLY_FLAGS,
  controllerManagerFlagSets,
  daemonValidators,
  withDelegatedAuth,
  type DaemonSpec,
} from '@orch/component-base';
import { COMPONENT_NAME, runControllerManager } from './runControllerManager';

/**
 * The orch-controller-manager daemon for runDaemon; its secure port authenticates and authorizes
 * through the apiserver (--authentication-kubeconfig, --authorization-kubeconfig).
 */
export function controllerManagerDaemon(): DaemonSpec<Record<string, unknown>> {
  return withDelegatedAuth({
    name: COMPONENT_NAME,
    description:
      'The orch controller manager is a daemon that embeds the core control loops. A controller watches the shared state of the cluster through the apiserver and makes changes attempting to move the current state towards the desired state.',
    flagSets: controllerManagerFlagSets(),
    validators: daemonValidators('controller-manager'),
    run: (ctx) => runControllerManager(ctx),
    noticeOnlyFlags: {
      ...COMMON_NOTICE_ONLY_FLAGS,
      'cloud-provider':
        'the cloud loops (cloud-node-lifecycle, route, service) run in orch-cloud-controller-manager',
      'cloud-config':
        'the cloud loops run in orch-cloud-controller-manager, which reads its own --cloud-config',
      'cluster-name': 'it names cloud resources, which orch-cloud-controller-manager manages',
      'external-cloud-volume-plugin': 'there are no in-tree cloud volume plugins',
    },
  });
}
