import { readFileSync } from 'node:fs';
import {
  clientConnectionOptionsFromFlags,
  FlagError,
  leaderElectionOptionsFromFlags,
  type ClientConnectionOptions,
  type LeaderElectionOptions,
  type ParsedFlags,
} from '@orch/component-base';
import { parse } from 'yaml';
import { DEFAULT_SCHEDULER_NAME, EXTENSION_POINTS, type ProfileConfig } from '../framework/profile';
import {
  DEFAULT_HARD_POD_AFFINITY_WEIGHT,
  INTER_POD_AFFINITY,
  validateInterPodAffinityArgs,
} from '../plugins/interpodaffinity/interPodAffinity';
import { DEFAULT_PREEMPTION } from '../plugins/defaultpreemption/defaultPreemption';
import { validateDefaultPreemptionArgs } from '../plugins/defaultpreemption/defaultPreemptionArgs';
import { VOLUME_BINDING, validateVolumeBindingArgs } from '../plugins/volumebinding/volumeBinding';

/** The validators of the plugin args the config file may carry, by plugin name. */
const PLUGIN_ARGS_VALIDATORS: Readonly<Record<string, (args: unknown, path: string) => unknown>> = {
  [INTER_POD_AFFINITY]: validateInterPodAffinityArgs,
  [DEFAULT_PREEMPTION]: validateDefaultPreemptionArgs,
  [VOLUME_BINDING]: validateVolumeBindingArgs,
};

/** The scheduler's effective configuration (a KubeSchedulerConfiguration subset), served at /configz. */
export interface SchedulerConfiguration {
  clientConnection: ClientConnectionOptions;
  leaderElection: LeaderElectionOptions;
  profiles: ProfileConfig[];
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks the profiles of a configuration file; throws a FlagError naming the first problem. */
export function parseProfiles(raw: unknown, file: string): ProfileConfig[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new FlagError(`--config: profiles in ${file} must be a list`);
  const names = new Set<string>();
  return raw.map((p: unknown, i) => {
    if (!isRecord(p)) throw new FlagError(`--config: profiles[${i}] in ${file} must be a mapping`);
    const schedulerName =
      typeof p.schedulerName === 'string' && p.schedulerName !== '' ? p.schedulerName : '';
    if (!schedulerName) throw new FlagError(`--config: profiles[${i}].schedulerName: Required value`);
    if (names.has(schedulerName))
      throw new FlagError(`--config: profiles[${i}].schedulerName: Duplicate value: "${schedulerName}"`);
    names.add(schedulerName);
    const plugins = p.plugins;
    if (plugins !== undefined && !isRecord(plugins))
      throw new FlagError(`--config: profiles[${i}].plugins must be a mapping`);
    for (const key of Object.keys(plugins ?? {}))
      if (!(EXTENSION_POINTS as readonly string[]).includes(key))
        throw new FlagError(`--config: profiles[${i}].plugins: unknown extension point "${key}"`);
    const pluginConfig = p.pluginConfig;
    if (pluginConfig !== undefined && !Array.isArray(pluginConfig))
      throw new FlagError(`--config: profiles[${i}].pluginConfig must be a list`);
    (pluginConfig ?? []).forEach((c: unknown, j) => {
      const validate = isRecord(c) && typeof c.name === 'string' ? PLUGIN_ARGS_VALIDATORS[c.name] : undefined;
      if (!validate || !isRecord(c)) return;
      try {
        validate(c.args, `profiles[${i}].pluginConfig[${j}].args`);
      } catch (err) {
        throw new FlagError(`--config: ${(err as Error).message}`);
      }
    });
    return {
      schedulerName,
      ...(plugins ? { plugins: plugins as ProfileConfig['plugins'] } : {}),
      ...(pluginConfig ? { pluginConfig: pluginConfig as ProfileConfig['pluginConfig'] } : {}),
    };
  });
}

function profilesFromFile(file: string): ProfileConfig[] | undefined {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new FlagError(`--config: failed to read "${file}": ${(err as Error).message}`);
  }
  return isRecord(doc) ? parseProfiles(doc.profiles, file) : undefined;
}

const HARD_POD_AFFINITY_FLAG = 'hard-pod-affinity-symmetric-weight';

/** The profile with InterPodAffinity's hardPodAffinityWeight set (the deprecated flag overrides the file). */
function withHardPodAffinityWeight(profile: ProfileConfig, weight: number): ProfileConfig {
  const others = (profile.pluginConfig ?? []).filter((c) => c.name !== INTER_POD_AFFINITY);
  const current = (profile.pluginConfig ?? []).find((c) => c.name === INTER_POD_AFFINITY)?.args;
  const args = { ...(isRecord(current) ? current : {}), hardPodAffinityWeight: weight };
  return { ...profile, pluginConfig: [...others, { name: INTER_POD_AFFINITY, args }] };
}

/**
 * Builds the configuration from the flags (which already hold the --config file's values) and the
 * file's profiles. Without profiles there is one, named by --scheduler-name; an explicit
 * --scheduler-name renames a single configured profile, as Kubernetes does.
 */
export function buildSchedulerConfig(flags: ParsedFlags): SchedulerConfiguration {
  const file = flags.string('config');
  const fromFile = file ? profilesFromFile(file) : undefined;
  const schedulerName = flags.string('scheduler-name') || DEFAULT_SCHEDULER_NAME;
  let profiles = fromFile && fromFile.length > 0 ? fromFile : [{ schedulerName }];
  if (fromFile && fromFile.length === 1 && flags.changed('scheduler-name'))
    profiles = [{ ...profiles[0]!, schedulerName }];
  const weight = flags.number(HARD_POD_AFFINITY_FLAG);
  if (flags.changed(HARD_POD_AFFINITY_FLAG) || weight !== DEFAULT_HARD_POD_AFFINITY_WEIGHT)
    profiles = profiles.map((p) => withHardPodAffinityWeight(p, weight));
  const percentage = flags.number('percentage-of-nodes-to-score');
  if (percentage < 0 || percentage > 100)
    throw new FlagError(`percentageOfNodesToScore: Invalid value: ${percentage}: not in valid range [0-100]`);
  const initial = flags.number('pod-initial-backoff-seconds');
  const max = flags.number('pod-max-backoff-seconds');
  if (initial <= 0)
    throw new FlagError(`podInitialBackoffSeconds: Invalid value: ${initial}: must be greater than 0`);
  if (max < initial)
    throw new FlagError(
      `podMaxBackoffSeconds: Invalid value: ${max}: must be greater than or equal to PodInitialBackoffSeconds`,
    );
  return {
    clientConnection: clientConnectionOptionsFromFlags(flags),
    leaderElection: leaderElectionOptionsFromFlags(flags),
    profiles,
    percentageOfNodesToScore: percentage,
    podInitialBackoffSeconds: initial,
    podMaxBackoffSeconds: max,
  };
}
