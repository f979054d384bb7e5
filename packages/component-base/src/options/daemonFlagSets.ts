import {
  CLOUD_CONTROLLER_MANAGER_CONTROLLERS,
  CLOUD_CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  CONTROLLER_MANAGER_CONTROLLERS,
  CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
} from './controllers';
import type { DaemonKind } from './daemonKind';
import type { FlagSetSpec } from './flagSpec';
import { authenticationFlags } from './flagSets/authenticationFlags';
import { authorizationFlags } from './flagSets/authorizationFlags';
import { clientConnectionFlags } from './flagSets/clientConnectionFlags';
import {
  cloudControllerManagerOwnFlags,
  controllerManagerControllerFlagSets,
  genericControllerManagerFlags,
  serviceControllerFlags,
} from './flagSets/controllerManagerFlags';
import { debuggingFlags } from './flagSets/debuggingFlags';
import { featureGateFlags } from './flagSets/featureGateFlags';
import { insecureServingFlags } from './flagSets/insecureServingFlags';
import { leaderElectionFlags, legacyLockObjectFlags } from './flagSets/leaderElectionFlags';
import { loggingFlags } from './flagSets/loggingFlags';
import { miscFlags } from './flagSets/miscFlags';
import { schedulerDeprecatedFlags, schedulerMiscFlags } from './flagSets/schedulerFlags';
import { secureServingFlags } from './flagSets/secureServingFlags';

/** Each daemon's default secure port. */
export const DEFAULT_SECURE_PORTS: Readonly<Record<DaemonKind, number>> = {
  scheduler: 10259,
  'controller-manager': 10257,
  'cloud-controller-manager': 10258,
};

/** Each daemon's default leader-election lock name. */
export const DEFAULT_LEADER_ELECTION_RESOURCE_NAMES: Readonly<Record<DaemonKind, string>> = {
  scheduler: 'orch-scheduler',
  'controller-manager': 'orch-controller-manager',
  'cloud-controller-manager': 'cloud-controller-manager',
};

function sharedSets(daemon: DaemonKind): FlagSetSpec[] {
  return [
    { name: 'Secure serving', flags: secureServingFlags(DEFAULT_SECURE_PORTS[daemon]) },
    { name: 'Authentication', flags: authenticationFlags(daemon === 'scheduler') },
    { name: 'Authorization', flags: authorizationFlags() },
  ];
}

function trailingSets(daemon: DaemonKind): FlagSetSpec[] {
  return [
    { name: 'Leader election', flags: leaderElectionFlags(DEFAULT_LEADER_ELECTION_RESOURCE_NAMES[daemon]) },
    { name: 'Feature gate', flags: featureGateFlags() },
    { name: 'Logs', flags: loggingFlags() },
  ];
}

/** The scheduler's flag sets, in help order. */
export function schedulerFlagSets(): FlagSetSpec[] {
  const client = clientConnectionFlags('scheduler');
  return [
    {
      name: 'Misc',
      flags: [...schedulerMiscFlags(), ...client.filter((f) => f.deprecated === undefined), ...miscFlags()],
    },
    ...sharedSets('scheduler'),
    {
      name: 'Deprecated',
      flags: [
        ...insecureServingFlags(),
        ...client.filter((f) => f.deprecated !== undefined),
        ...schedulerDeprecatedFlags(),
        ...legacyLockObjectFlags(),
        ...debuggingFlags(true),
      ],
    },
    ...trailingSets('scheduler'),
  ];
}

/** The controller manager's flag sets, in help order. */
export function controllerManagerFlagSets(): FlagSetSpec[] {
  return [
    {
      name: 'Generic',
      flags: genericControllerManagerFlags(
        CONTROLLER_MANAGER_CONTROLLERS,
        CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
      ),
    },
    { name: 'Service controller', flags: serviceControllerFlags() },
    ...sharedSets('controller-manager'),
    ...controllerManagerControllerFlagSets(),
    { name: 'Debugging', flags: debuggingFlags(false) },
    { name: 'Misc', flags: [...clientConnectionFlags('controller-manager'), ...miscFlags()] },
    ...trailingSets('controller-manager'),
  ];
}

/** The cloud controller manager's flag sets, in help order. */
export function cloudControllerManagerFlagSets(): FlagSetSpec[] {
  return [
    {
      name: 'Generic',
      flags: [
        ...genericControllerManagerFlags(
          CLOUD_CONTROLLER_MANAGER_CONTROLLERS,
          CLOUD_CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
        ),
        ...cloudControllerManagerOwnFlags(),
      ],
    },
    { name: 'Service controller', flags: serviceControllerFlags() },
    ...sharedSets('cloud-controller-manager'),
    { name: 'Debugging', flags: debuggingFlags(false) },
    { name: 'Misc', flags: [...clientConnectionFlags('cloud-controller-manager'), ...miscFlags()] },
    ...trailingSets('cloud-controller-manager'),
  ];
}

/** The flag sets of a daemon by kind. */
export function daemonFlagSets(daemon: DaemonKind): FlagSetSpec[] {
  switch (daemon) {
    case 'scheduler':
      return schedulerFlagSets();
    case 'controller-manager':
      return controllerManagerFlagSets();
    case 'cloud-controller-manager':
      return cloudControllerManagerFlagSets();
  }
}
