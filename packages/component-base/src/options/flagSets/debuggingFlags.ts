import { flag, type FlagSpec } from '../flagSpec';

/** Profiling flags; deprecated on the scheduler (where the config file carries them). */
export function debuggingFlags(deprecated: boolean): FlagSpec[] {
  const reason = deprecated ? { deprecated: 'use the --config file instead.' } : {};
  return [
    flag({
      name: 'contention-profiling',
      type: 'bool',
      help: 'Enable lock contention profiling, if profiling is enabled.',
      configKey: 'enableContentionProfiling',
      ...reason,
    }),
    flag({
      name: 'profiling',
      type: 'bool',
      help: 'Enable profiling via web interface host:port/debug/pprof/.',
      configKey: 'enableProfiling',
      ...reason,
    }),
  ];
}
