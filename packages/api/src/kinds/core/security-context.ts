import type { Static } from '@sinclair/typebox';
import { bool, field, int64, list, required, str, struct } from '../../schema/fields';
import type { FieldErrorLike } from '../../schema/fields';
import { inclusiveRangeError } from '../../util/names';
import { child, invalid, required as requiredError } from '../../validation/field-error';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;
const MAX_ID = 2147483647;

/** Kubernetes' IsValidUserID / IsValidGroupID: 0..2^31-1. */
function validateId(value: number | undefined, path: string): FieldErrorLike[] {
  if (value === undefined || (value >= 0 && value <= MAX_ID)) return [];
  return [invalid(path, value, inclusiveRangeError(0, MAX_ID))];
}

export const CapabilitiesSchema = struct(core('Capabilities'), {
  add: list(str(), { proto: 1, description: 'Capabilities added.' }),
  drop: list(str(), { proto: 2, description: 'Capabilities removed.' }),
});
export type Capabilities = Static<typeof CapabilitiesSchema>;

export const SELinuxOptionsSchema = struct(core('SELinuxOptions'), {
  user: str({ proto: 1, description: 'SELinux user label.' }),
  role: str({ proto: 2, description: 'SELinux role label.' }),
  type: str({ proto: 3, description: 'SELinux type label.' }),
  level: str({ proto: 4, description: 'SELinux level label.' }),
});
export type SELinuxOptions = Static<typeof SELinuxOptionsSchema>;

export const WindowsSecurityContextOptionsSchema = struct(core('WindowsSecurityContextOptions'), {
  gmsaCredentialSpecName: str({ proto: 1, description: 'Name of the GMSA credential spec to use.' }),
  gmsaCredentialSpec: str({ proto: 2, description: 'Inlined contents of the GMSA credential spec.' }),
  runAsUserName: str({ proto: 3, description: 'Windows user name running the entrypoint.' }),
});
export type WindowsSecurityContextOptions = Static<typeof WindowsSecurityContextOptionsSchema>;

export const SeccompProfileSchema = struct(
  core('SeccompProfile'),
  {
    type: required(
      str({
        proto: 1,
        enum: ['Localhost', 'RuntimeDefault', 'Unconfined'],
        description: 'Localhost, RuntimeDefault or Unconfined.',
      }),
    ),
    localhostProfile: str({ proto: 2, description: 'Profile file on the node; only with type Localhost.' }),
  },
  {
    validate: (sp, path) => {
      if (sp.type === 'Localhost' && !sp.localhostProfile) {
        return [requiredError(child(path, 'localhostProfile'), 'must be set when seccomp type is Localhost')];
      }
      if (sp.type !== 'Localhost' && sp.localhostProfile) {
        return [
          invalid(
            child(path, 'localhostProfile'),
            sp.localhostProfile,
            'can only be set when seccomp type is Localhost',
          ),
        ];
      }
      return [];
    },
  },
);
export type SeccompProfile = Static<typeof SeccompProfileSchema>;

export const SysctlSchema = struct(core('Sysctl'), {
  name: required(str({ proto: 1, description: 'Name of the kernel parameter.' })),
  value: required(str({ proto: 2, description: 'Value of the kernel parameter.' })),
});
export type Sysctl = Static<typeof SysctlSchema>;

export const SecurityContextSchema = struct(
  core('SecurityContext'),
  {
    capabilities: field(CapabilitiesSchema, { proto: 1, description: 'Capabilities to add or drop.' }),
    privileged: bool({ proto: 2, description: 'Run in privileged mode.' }),
    seLinuxOptions: field(SELinuxOptionsSchema, {
      proto: 3,
      description: 'SELinux context of the container.',
    }),
    windowsOptions: field(WindowsSecurityContextOptionsSchema, {
      proto: 10,
      description: 'Windows specific settings.',
    }),
    runAsUser: int64({ proto: 4, description: 'UID running the entrypoint.' }),
    runAsGroup: int64({ proto: 8, featureGate: 'RunAsGroup', description: 'GID running the entrypoint.' }),
    runAsNonRoot: bool({ proto: 5, description: 'Refuse to start the container as UID 0.' }),
    readOnlyRootFilesystem: bool({ proto: 6, description: 'Mount the root filesystem read-only.' }),
    allowPrivilegeEscalation: bool({
      proto: 7,
      description: 'Whether a process may gain more privileges than its parent.',
    }),
    procMount: str({
      proto: 9,
      featureGate: 'ProcMountType',
      enum: ['Default', 'Unmasked'],
      description: 'Type of proc mount: Default or Unmasked.',
    }),
    seccompProfile: field(SeccompProfileSchema, {
      proto: 11,
      description: 'Seccomp options of the container.',
    }),
  },
  {
    validate: (sc, path) => {
      const errs = [
        ...validateId(sc.runAsUser, child(path, 'runAsUser')),
        ...validateId(sc.runAsGroup, child(path, 'runAsGroup')),
      ];
      if (sc.allowPrivilegeEscalation === false) {
        if (sc.privileged === true) {
          errs.push(
            invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'),
          );
        }
        if (sc.capabilities?.add?.includes('CAP_SYS_ADMIN')) {
          errs.push(
            invalid(
              path,
              sc,
              'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
            ),
          );
        }
      }
      return errs;
    },
  },
);
export type SecurityContext = Static<typeof SecurityContextSchema>;

export const PodSecurityContextSchema = struct(
  core('PodSecurityContext'),
  {
    seLinuxOptions: field(SELinuxOptionsSchema, {
      proto: 1,
      description: 'SELinux context of all containers.',
    }),
    windowsOptions: field(WindowsSecurityContextOptionsSchema, {
      proto: 8,
      description: 'Windows specific settings.',
    }),
    runAsUser: int64({ proto: 2, description: 'UID running the entrypoint of every container.' }),
    runAsGroup: int64({
      proto: 6,
      featureGate: 'RunAsGroup',
      description: 'GID running the entrypoint of every container.',
    }),
    runAsNonRoot: bool({ proto: 3, description: 'Refuse to start containers as UID 0.' }),
    supplementalGroups: list(int64(), {
      proto: 4,
      description: 'Groups added to the first process of each container.',
    }),
    fsGroup: int64({ proto: 5, description: 'Group owning the volumes that support ownership management.' }),
    sysctls: list(SysctlSchema, {
      proto: 7,
      featureGate: 'Sysctls',
      description: 'Namespaced sysctls set for the pod.',
    }),
    fsGroupChangePolicy: str({
      proto: 9,
      enum: ['Always', 'OnRootMismatch'],
      description: 'How volume ownership is changed: OnRootMismatch or Always.',
    }),
    seccompProfile: field(SeccompProfileSchema, {
      proto: 10,
      description: 'Seccomp options of the containers.',
    }),
  },
  {
    validate: (sc, path) => {
      const errs = [
        ...validateId(sc.runAsUser, child(path, 'runAsUser')),
        ...validateId(sc.runAsGroup, child(path, 'runAsGroup')),
        ...validateId(sc.fsGroup, child(path, 'fsGroup')),
      ];
      (sc.supplementalGroups ?? []).forEach((g, i) =>
        errs.push(...validateId(g, child(child(path, 'supplementalGroups'), i))),
      );
      return errs;
    },
  },
);
export type PodSecurityContext = Static<typeof PodSecurityContextSchema>;
