import type { RestConfig } from '@orch/client';
import {
  restConfigFromFlags as daemonRestConfig,
  runControllerManagerDaemon,
  type ControllerManagerRunOptions,
  type ControllerManagerDaemonContext,
  type DaemonHandle,
  type ParsedFlags,
} from '@orch/component-base';
import { ControllerManager } from '../manager/ControllerManager';
import { CONTROLLER_REGISTRY } from '../manager/controllerRegistry';

export const COMPONENT_NAME = 'orch-controller-manager';

/** The manager's REST config from --kubeconfig/--master and the --orch-api-* flags. */
export function restConfigFromFlags(flags: ParsedFlags): RestConfig {
  return daemonRestConfig(flags, COMPONENT_NAME);
}

export type RunOptions = ControllerManagerRunOptions;

/** Runs the controller manager of a parsed command line: leader election, then the controllers. */
export async function runControllerManager(
  daemon: ControllerManagerDaemonContext,
  options: RunOptions = {},
): Promise<DaemonHandle & { manager: ControllerManager }> {
  const { flags } = daemon;
  // Unknown controller names fail before anything starts.
  ControllerManager.enabled(flags.strings('controllers'));
  return runControllerManagerDaemon(daemon, {
    ...options,
    name: COMPONENT_NAME,
    eventComponent: (name) => CONTROLLER_REGISTRY[name]?.eventComponent ?? `${name}-controller`,
    serviceAccount: (name) =>
      CONTROLLER_REGISTRY[name]?.rootCredentials
        ? undefined
        : (CONTROLLER_REGISTRY[name]?.serviceAccount ?? `${name}-controller`),
    create: (deps) => new ControllerManager({ ...deps, controllers: flags.strings('controllers') }),
  });
}
