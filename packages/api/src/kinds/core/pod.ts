import type { Static } from '@sinclair/typebox';
import { bool, field, int32, int64, list, str, struct, time } from '../../schema/fields';
import type { FieldErrorLike } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child, forbidden, invalid, required as requiredError } from '../../validation/field-error';
import { inclusiveRangeError } from '../../util/names';
import { semanticEqual } from '../../validation/immutable';
import { EphemeralContainerSchema } from './container';
import type { Container } from './container';
import { podColumns, podRowConditions } from './pod-columns';
import { PodSpecSchema } from './pod-spec';
import type { PodSpec } from './pod-spec';
import { PodStatusSchema } from './pod-status';
import { defaultRequestsFromLimits } from './resources';
import type { Toleration } from './toleration';

const MAX_INT32 = 2147483647;

/** The message Kubernetes gives when a pod update touches a field it may not change. */
export const POD_UPDATE_FORBIDDEN_MESSAGE = `pod updates may not change fields other than ${[
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
].join(',')}`;

export const PodSchema = struct(
  'io.k8s.api.core.v1.Pod',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(PodSpecSchema, { proto: 2, description: 'Desired behavior of the pod.' }),
    status: field(PodStatusSchema, { proto: 3, description: 'Most recently observed status of the pod.' }),
  },
  {
    description: 'A group of containers run together on one node, sharing network and storage.',
    // Kubernetes' SetDefaults_Pod: only pods (not pod templates) get these.
    defaults: (pod) => {
      const spec = pod.spec;
      if (!spec) return;
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])])
        defaultRequestsFromLimits(c.resources);
      spec.enableServiceLinks ??= true;
    },
    validate: (pod, _path, ctx) => {
      // A pod without a spec has no containers.
      if (!pod.spec) return [requiredError('spec.containers')];
      // Ephemeral containers are only added through the ephemeralcontainers subresource.
      if (ctx.old === undefined && (pod.spec.ephemeralContainers?.length ?? 0) > 0) {
        return [forbidden('spec.ephemeralContainers', 'cannot be set on create')];
      }
      return [];
    },
  },
);
export type Pod = Static<typeof PodSchema>;

/** Body of the ephemeralcontainers subresource (Kubernetes 1.16-1.21). */
export const EphemeralContainersSchema = struct('io.k8s.api.core.v1.EphemeralContainers', {
  ...typeMeta(),
  metadata: objectMeta(),
  ephemeralContainers: list(EphemeralContainerSchema, {
    proto: 2,
    patchMergeKey: 'name',
    patchStrategy: 'merge',
    description: 'Ephemeral containers of the pod.',
  }),
});
export type EphemeralContainers = Static<typeof EphemeralContainersSchema>;

/** Query options of the pods/log subresource. */
export const PodLogOptionsSchema = struct('io.k8s.api.core.v1.PodLogOptions', {
  ...typeMeta(),
  container: str({ proto: 1, description: 'Container to stream logs of; the only container by default.' }),
  follow: bool({ proto: 2, description: 'Follow the log stream.' }),
  previous: bool({ proto: 3, description: 'Logs of the previous terminated container.' }),
  sinceSeconds: int64({ proto: 4, description: 'Only logs newer than this many seconds.' }),
  sinceTime: time({ proto: 5, description: 'Only logs after this time.' }),
  timestamps: bool({ proto: 6, description: 'Prefix every line with its timestamp.' }),
  tailLines: int64({ proto: 7, description: 'Number of lines from the end of the log to show.' }),
  limitBytes: int64({ proto: 8, description: 'Number of bytes to read before stopping.' }),
  insecureSkipTLSVerifyBackend: bool({
    proto: 9,
    description: "Skip verifying the node agent's serving certificate.",
  }),
});
export type PodLogOptions = Static<typeof PodLogOptionsSchema>;

const streamOptions = {
  ...typeMeta(),
  stdin: bool({ proto: 1, description: 'Redirect standard input.' }),
  stdout: bool({ proto: 2, description: 'Redirect standard output; true by default.' }),
  stderr: bool({ proto: 3, description: 'Redirect standard error; true by default.' }),
  tty: bool({ proto: 4, description: 'Allocate a TTY.' }),
  container: str({ proto: 5, description: 'Container to attach to; the only container by default.' }),
};

/** Query options of the pods/attach subresource. */
export const PodAttachOptionsSchema = struct('io.k8s.api.core.v1.PodAttachOptions', streamOptions);
export type PodAttachOptions = Static<typeof PodAttachOptionsSchema>;

/** Query options of the pods/exec subresource. */
export const PodExecOptionsSchema = struct('io.k8s.api.core.v1.PodExecOptions', {
  ...streamOptions,
  command: list(str(), { proto: 6, description: 'Command to run, not in a shell.' }),
});
export type PodExecOptions = Static<typeof PodExecOptionsSchema>;

/** Query options of the pods/portforward subresource over WebSockets. */
export const PodPortForwardOptionsSchema = struct('io.k8s.api.core.v1.PodPortForwardOptions', {
  ...typeMeta(),
  ports: list(int32(), { proto: 1, description: 'Ports to forward.' }),
});
export type PodPortForwardOptions = Static<typeof PodPortForwardOptionsSchema>;

/** Query options of the pods/proxy subresource. */
export const PodProxyOptionsSchema = struct('io.k8s.api.core.v1.PodProxyOptions', {
  ...typeMeta(),
  path: str({ proto: 1, description: 'URL path of the proxied request.' }),
});
export type PodProxyOptions = Static<typeof PodProxyOptionsSchema>;

/** apimachinery's StringDiff: the common prefix, then what follows in each. */
function stringDiff(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `${a.slice(0, i)}\n\nA: ${a.slice(i)}\n\nB: ${b.slice(i)}\n\n`;
}

/** Kubernetes' ValidateContainerUpdates: same number of containers, each with an image. */
function validateContainerUpdates(
  next: readonly Container[],
  prev: readonly Container[],
  path: string,
): { errors: FieldErrorLike[]; stop: boolean } {
  if (next.length !== prev.length)
    return { errors: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errors: FieldErrorLike[] = [];
  next.forEach((c, i) => {
    const image = c.image ?? '';
    if (image.length === 0) errors.push(requiredError(child(child(path, i), 'image')));
    if (image.trim().length !== image.length) {
      errors.push(
        invalid(child(child(path, i), 'image'), image, 'must not have leading or trailing whitespace'),
      );
    }
  });
  return { errors, stop: false };
}

/** Kubernetes' validateOnlyAddedTolerations: existing tolerations stay, except their tolerationSeconds. */
function validateOnlyAddedTolerations(
  next: readonly Toleration[],
  prev: readonly Toleration[],
  path: string,
): FieldErrorLike[] {
  for (const old of prev) {
    const kept = next.some((t) => semanticEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!kept)
      return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return [];
}

/** Kubernetes' ValidatePodUpdate rules on the spec. */
export function validatePodUpdate(pod: Pod, old: Pod): FieldErrorLike[] {
  const spec: PodSpec = pod.spec ?? { containers: [] };
  const oldSpec: PodSpec = old.spec ?? { containers: [] };
  const errs: FieldErrorLike[] = [];
  for (const name of ['containers', 'initContainers'] as const) {
    const r = validateContainerUpdates(spec[name] ?? [], oldSpec[name] ?? [], `spec.${name}`);
    errs.push(...r.errors);
    if (r.stop) return errs;
  }
  const deadlinePath = 'spec.activeDeadlineSeconds';
  if (spec.activeDeadlineSeconds !== undefined) {
    const v = spec.activeDeadlineSeconds;
    if (v < 0 || v > MAX_INT32) return [...errs, invalid(deadlinePath, v, inclusiveRangeError(0, MAX_INT32))];
    if (oldSpec.activeDeadlineSeconds !== undefined && oldSpec.activeDeadlineSeconds < v) {
      return [...errs, invalid(deadlinePath, v, 'must be less than or equal to previous value')];
    }
  } else if (oldSpec.activeDeadlineSeconds !== undefined) {
    errs.push(invalid(deadlinePath, null, 'must not update from a positive integer to nil value'));
  }
  errs.push(
    ...validateOnlyAddedTolerations(spec.tolerations ?? [], oldSpec.tolerations ?? [], 'spec.tolerations'),
  );
  // scheduling gates may only be removed
  const oldGates = new Set((oldSpec.schedulingGates ?? []).map((g) => g.name));
  for (const gate of spec.schedulingGates ?? []) {
    if (!oldGates.has(gate.name)) {
      errs.push(
        forbidden(
          'spec.schedulingGates',
          `only deletion is allowed, but found new scheduling gate '${gate.name}'`,
        ),
      );
    }
  }
  if (semanticEqual(spec, oldSpec)) return errs;

  const withImages = (next: readonly Container[] | undefined, prev: readonly Container[] | undefined) =>
    next?.map((c, i) => ({ ...c, image: prev?.[i]?.image }));
  const munged: PodSpec = {
    ...spec,
    containers: withImages(spec.containers, oldSpec.containers) ?? [],
    initContainers: withImages(spec.initContainers, oldSpec.initContainers),
    activeDeadlineSeconds: oldSpec.activeDeadlineSeconds,
    tolerations: oldSpec.tolerations,
    schedulingGates: oldSpec.schedulingGates,
  };
  // a negative grace period (a pod deleted with --now before) may be set to 1
  if ((oldSpec.terminationGracePeriodSeconds ?? 0) < 0 && spec.terminationGracePeriodSeconds === 1)
    munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds;
  if (!semanticEqual(munged, oldSpec)) {
    const diff = stringDiff(JSON.stringify(munged), JSON.stringify(oldSpec));
    errs.push(forbidden('spec', `${POD_UPDATE_FORBIDDEN_MESSAGE}\n${diff}`));
  }
  return errs;
}

export const PodKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'Pod',
  plural: 'pods',
  singular: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  generation: false,
  schema: PodSchema,
  subresources: {
    status: true,
    binding: { kind: 'Binding', verbs: ['create'] },
    eviction: { group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
    log: { kind: 'Pod', verbs: ['get'] },
    exec: { kind: 'PodExecOptions', verbs: ['create', 'get'] },
    attach: { kind: 'PodAttachOptions', verbs: ['create', 'get'] },
    portforward: { kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
    proxy: { kind: 'PodProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
    ephemeralcontainers: { kind: 'EphemeralContainers', verbs: ['get', 'patch', 'update'] },
  },
  selectableFields: {
    'spec.nodeName': (pod) => pod.spec?.nodeName ?? '',
    'spec.restartPolicy': (pod) => pod.spec?.restartPolicy ?? '',
    'spec.schedulerName': (pod) => pod.spec?.schedulerName ?? '',
    'spec.serviceAccountName': (pod) => pod.spec?.serviceAccountName ?? '',
    'status.phase': (pod) => pod.status?.phase ?? '',
    'status.podIP': (pod) => pod.status?.podIPs?.[0]?.ip ?? '',
    'status.nominatedNodeName': (pod) => pod.status?.nominatedNodeName ?? '',
  },
  columns: podColumns,
  rowConditions: podRowConditions,
  validateUpdate: validatePodUpdate,
});
