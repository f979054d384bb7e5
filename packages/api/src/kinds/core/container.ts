import type { Static } from '@sinclair/typebox';
import { bool, field, int32, list, required, str, struct } from '../../schema/fields';
import type { FieldErrorLike, StructSchema } from '../../schema/fields';
import { isValidPortName, isValidPortNum } from '../../util/names';
import {
  child,
  duplicate,
  forbidden,
  invalid,
  required as requiredError,
} from '../../validation/field-error';
import { EnvFromSourceSchema, EnvVarSchema, validateEnvFrom } from './env';
import { inlined } from '../../schema/fields';
import { LifecycleSchema, ProbeSchema } from './probe';
import { ResourceRequirementsSchema, validateContainerResources } from './resources';
import { SecurityContextSchema } from './security-context';
import { validateLocalDescendingPath } from './volume';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

export const ContainerPortSchema = struct(
  core('ContainerPort'),
  {
    name: str({
      proto: 1,
      format: 'port-name',
      description: 'IANA_SVC_NAME of the port, unique within the pod.',
    }),
    hostPort: int32({ proto: 2, omitZero: true, description: 'Port exposed on the host (1-65535).' }),
    containerPort: required(
      int32({ proto: 3, description: "Port exposed on the pod's IP address (1-65535)." }),
    ),
    protocol: str({
      proto: 4,
      enum: ['SCTP', 'TCP', 'UDP'],
      default: 'TCP',
      description: 'TCP, UDP or SCTP; TCP by default.',
    }),
    hostIP: str({ proto: 5, omitZero: true, description: 'Host IP the external port is bound to.' }),
  },
  {
    defaults: (p) => {
      if (!p.protocol) p.protocol = 'TCP';
    },
  },
);
export type ContainerPort = Static<typeof ContainerPortSchema>;

export const VolumeMountSchema = struct(
  core('VolumeMount'),
  {
    name: required(str({ proto: 1, description: 'Name of the volume mounted.' })),
    readOnly: bool({ proto: 2, description: 'Mount read-only; read-write by default.' }),
    mountPath: required(
      str({
        proto: 3,
        description: "Path in the container where the volume is mounted; must not contain ':'.",
      }),
    ),
    subPath: str({ proto: 4, description: "Path within the volume to mount; the volume's root by default." }),
    mountPropagation: str({
      proto: 5,
      enum: ['Bidirectional', 'HostToContainer', 'None'],
      description: 'How mounts propagate between host and container; None by default.',
    }),
    subPathExpr: str({
      proto: 6,
      featureGate: 'VolumeSubpathEnvExpansion',
      description: 'Like subPath, with $(VAR_NAME) expanded from the environment.',
    }),
  },
  {
    validate: (m, path) => [
      ...(m.subPath ? validateLocalDescendingPath(m.subPath, child(path, 'subPath')) : []),
      ...(m.subPath && m.subPathExpr
        ? [
            invalid(
              child(path, 'subPathExpr'),
              m.subPathExpr,
              'subPathExpr and subPath are mutually exclusive',
            ),
          ]
        : []),
    ],
  },
);
export type VolumeMount = Static<typeof VolumeMountSchema>;

export const VolumeDeviceSchema = struct(core('VolumeDevice'), {
  name: required(str({ proto: 1, description: 'Name of a persistentVolumeClaim of the pod.' })),
  devicePath: required(str({ proto: 2, description: 'Path in the container the device is mapped to.' })),
});
export type VolumeDevice = Static<typeof VolumeDeviceSchema>;

export const ContainerResizePolicySchema = struct(core('ContainerResizePolicy'), {
  resourceName: required(str({ proto: 1, description: 'Resource the policy applies to: cpu or memory.' })),
  restartPolicy: required(
    str({ proto: 2, description: 'NotRequired or RestartContainer when the resource is resized.' }),
  ),
});
export type ContainerResizePolicy = Static<typeof ContainerResizePolicySchema>;

/** The fields Container and EphemeralContainer share, with their protobuf numbers. */
function containerFields(nameDescription: string) {
  return {
    name: required(str({ proto: 1, format: 'dns1123-label', description: nameDescription })),
    image: str({ proto: 2, description: 'Container image name.' }),
    command: list(str(), {
      proto: 3,
      description:
        'Entrypoint, not run in a shell; $(VAR_NAME) is expanded from the environment, $$ escapes.',
    }),
    args: list(str(), { proto: 4, description: 'Arguments to the entrypoint, expanded like command.' }),
    workingDir: str({
      proto: 5,
      omitZero: true,
      description: "Working directory; the runtime's default when unset.",
    }),
    ports: list(ContainerPortSchema, {
      proto: 6,
      patchMergeKey: 'containerPort',
      patchStrategy: 'merge',
      listType: 'map',
      listMapKeys: ['containerPort', 'protocol'],
      description: 'Ports exposed by the container (informational).',
    }),
    envFrom: list(EnvFromSourceSchema, {
      proto: 19,
      description: 'Sources of environment variables; later sources and env entries win.',
    }),
    env: list(EnvVarSchema, {
      proto: 7,
      patchMergeKey: 'name',
      patchStrategy: 'merge',
      description: 'Environment variables.',
    }),
    resources: field(ResourceRequirementsSchema, {
      proto: 8,
      default: {},
      description: 'Compute resources required.',
    }),
    volumeMounts: list(VolumeMountSchema, {
      proto: 9,
      patchMergeKey: 'mountPath',
      patchStrategy: 'merge',
      description: "Pod volumes mounted into the container's filesystem.",
    }),
    volumeDevices: list(VolumeDeviceSchema, {
      proto: 21,
      patchMergeKey: 'devicePath',
      patchStrategy: 'merge',
      description: 'Block devices used by the container.',
    }),
    livenessProbe: field(ProbeSchema, { proto: 10, description: 'Restarts the container when it fails.' }),
    readinessProbe: field(ProbeSchema, {
      proto: 11,
      description: 'Removes the container from service endpoints when it fails.',
    }),
    startupProbe: field(ProbeSchema, {
      proto: 22,
      featureGate: 'StartupProbe',
      description: 'Must succeed before other probes run; failure restarts the container.',
    }),
    lifecycle: field(LifecycleSchema, { proto: 12, description: 'Actions on container lifecycle events.' }),
    terminationMessagePath: str({
      proto: 13,
      default: '/dev/termination-log',
      description: 'File holding the final message; /dev/termination-log by default.',
    }),
    terminationMessagePolicy: str({
      proto: 20,
      default: 'File',
      description: 'File or FallbackToLogsOnError; File by default.',
    }),
    imagePullPolicy: str({
      proto: 14,
      enum: ['Always', 'IfNotPresent', 'Never'],
      description: 'Always, Never or IfNotPresent; Always for the latest tag, else IfNotPresent.',
    }),
    securityContext: field(SecurityContextSchema, {
      proto: 15,
      description: 'Security options of the container.',
    }),
    stdin: bool({
      proto: 16,
      omitZero: true,
      description: 'Allocate a buffer for stdin; reads give EOF when false.',
    }),
    stdinOnce: bool({
      proto: 17,
      omitZero: true,
      description: 'Close stdin after the first attach session ends.',
    }),
    tty: bool({ proto: 18, omitZero: true, description: 'Allocate a TTY (meant to be used with stdin).' }),
    resizePolicy: list(ContainerResizePolicySchema, {
      proto: 23,
      listType: 'atomic',
      description: 'Whether changing a resource of the container in place restarts it, per resource.',
    }),
    restartPolicy: str({
      proto: 24,
      description:
        'Only Always, and only for init containers: a sidecar that starts before the app containers and runs beside them.',
    }),
  };
}

const referencePattern = (() => {
  const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
  const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`;
  const component = '[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*';
  const name = `(?:${domain}/)?${component}(?:/${component})*`;
  const tag = '[\\w][\\w.-]{0,127}';
  const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}';
  return new RegExp(`^(${name})(?::(${tag}))?(?:@(${digest}))?$`);
})();

/**
 * Kubernetes' image pull policy default: Always when the image has the tag `latest` or neither a tag
 * nor a digest, IfNotPresent otherwise (also when the reference does not parse).
 */
export function defaultImagePullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  const m = referencePattern.exec(image ?? '');
  if (!m) return 'IfNotPresent';
  const [, , tag, digest] = m;
  if (tag === 'latest') return 'Always';
  return !tag && !digest ? 'Always' : 'IfNotPresent';
}

interface ContainerLike {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
}

function defaultContainer(c: ContainerLike): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = defaultImagePullPolicy(c.image);
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
}

type ContainerValue = Static<StructSchema<ReturnType<typeof containerFields>>>;

/** Kubernetes' per-container rules of validateContainers (names of ports, mounts, policies, resources). */
function validateContainer(c: ContainerValue, path: string): FieldErrorLike[] {
  const errs: FieldErrorLike[] = [];
  if (!c.image) errs.push(requiredError(child(path, 'image')));
  const policyPath = child(path, 'terminationMessagePolicy');
  const policyDetail = "must be 'File' or 'FallbackToLogsOnError'";
  if (!c.terminationMessagePolicy) errs.push(requiredError(policyPath, policyDetail));
  else if (c.terminationMessagePolicy !== 'File' && c.terminationMessagePolicy !== 'FallbackToLogsOnError') {
    errs.push(invalid(policyPath, c.terminationMessagePolicy, policyDetail));
  }
  const portNames = new Set<string>();
  (c.ports ?? []).forEach((p, i) => {
    const at = child(child(path, 'ports'), i);
    if (p.name && isValidPortName(p.name).length === 0) {
      if (portNames.has(p.name)) errs.push(duplicate(child(at, 'name'), p.name));
      portNames.add(p.name);
    }
    if (!p.containerPort) errs.push(requiredError(child(at, 'containerPort')));
    else
      for (const msg of isValidPortNum(p.containerPort))
        errs.push(invalid(child(at, 'containerPort'), p.containerPort, msg));
    if (p.hostPort)
      for (const msg of isValidPortNum(p.hostPort))
        errs.push(invalid(child(at, 'hostPort'), p.hostPort, msg));
  });
  errs.push(...validateEnvFrom(c.envFrom, child(path, 'envFrom')));
  const mountPaths = new Set<string>();
  (c.volumeMounts ?? []).forEach((m, i) => {
    const at = child(child(path, 'volumeMounts'), i);
    if (!m.name) errs.push(requiredError(child(at, 'name')));
    if (!m.mountPath) errs.push(requiredError(child(at, 'mountPath')));
    else if (mountPaths.has(m.mountPath))
      errs.push(invalid(child(at, 'mountPath'), m.mountPath, 'must be unique'));
    else mountPaths.add(m.mountPath);
  });
  errs.push(...validateContainerResources(c.resources, child(path, 'resources')));
  for (const probe of ['livenessProbe', 'startupProbe'] as const) {
    const threshold = c[probe]?.successThreshold;
    if (c[probe] && threshold !== 1) {
      errs.push(invalid(child(child(path, probe), 'successThreshold'), threshold ?? 0, 'must be 1'));
    }
  }
  return errs;
}

export const ContainerSchema = struct(
  core('Container'),
  containerFields('Name of the container (DNS_LABEL), unique within the pod.'),
  { defaults: defaultContainer, validate: validateContainer },
);
export type Container = Static<typeof ContainerSchema>;

/** Fields an ephemeral container may not set, as Kubernetes' validateEphemeralContainers lists them. */
const forbiddenForEphemeral = [
  'lifecycle',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'ports',
  'resizePolicy',
  'restartPolicy',
] as const;

export const EphemeralContainerSchema = struct(
  core('EphemeralContainer'),
  {
    ...inlined(
      { field: 'ephemeralContainerCommon', proto: 1, message: 'k8s.io.api.core.v1.EphemeralContainerCommon' },
      containerFields('Name of the ephemeral container, unique among all containers of the pod.'),
    ),
    targetContainerName: str({ proto: 2, description: 'Container whose namespaces this container joins.' }),
  },
  {
    defaults: defaultContainer,
    validate: (c, path) => {
      const errs: FieldErrorLike[] = [];
      if (!c.image) errs.push(requiredError(child(path, 'image')));
      for (const name of forbiddenForEphemeral) {
        const v = c[name] as unknown;
        if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)) {
          errs.push(forbidden(child(path, name), 'cannot be set for an Ephemeral Container'));
        }
      }
      const res = c.resources;
      if (res && (Object.keys(res.limits ?? {}).length > 0 || Object.keys(res.requests ?? {}).length > 0)) {
        errs.push(forbidden(child(path, 'resources'), 'cannot be set for an Ephemeral Container'));
      }
      return errs;
    },
  },
);
export type EphemeralContainer = Static<typeof EphemeralContainerSchema>;
