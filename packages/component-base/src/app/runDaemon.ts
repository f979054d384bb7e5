import type { EventEmitter } from 'node:events';
import { Registry } from '../server/metricsRegistry';
import { DEFAULT_FEATURE_GATES } from '../featuregate/defaultFeatureGates';
import { FeatureGate } from '../featuregate/featureGate';
import { Logger } from '../logs/logger';
import { loggingOptionsFromFlags } from '../logs/loggingOptions';
import { applyConfigFile, writeConfigFile } from '../options/configFile';
import { FlagError } from '../options/flagError';
import type { FlagSetSpec } from '../options/flagSpec';
import { formatHelp } from '../options/helpText';
import { parseFlags } from '../options/parseFlags';
import type { ParsedFlags } from '../options/parsedFlags';
import { validateFlags, type FlagValidator } from '../options/validateFlags';
import type { Authenticate, Authorize } from '../server/delegatedAuth';
import { HealthChecks } from '../server/healthChecks';
import { SecureServer } from '../server/secureServer';
import { secureServingOptionsFromFlags } from '../server/secureServingOptions';
import { version, versionText } from '../version/version';
import { errorMessage } from '../errorMessage';

/** What a running daemon gets. */
export interface DaemonContext<C> {
  name: string;
  flags: ParsedFlags;
  config: C;
  featureGates: FeatureGate;
  logger: Logger;
  health: HealthChecks;
  metrics: Registry;
  /** Undefined when --secure-port is 0. */
  server: SecureServer | undefined;
}

/** What a daemon's run may hand back so it can be stopped on SIGTERM/SIGINT. */
export interface DaemonHandle {
  stop?(): void | Promise<void>;
  /**
   * Resolves with the reason when the daemon can no longer do its work (a controller manager whose
   * controllers failed to start): the runner then stops it and exits 1, as Kubernetes' daemons exit
   * on a fatal error.
   */
  failed?: Promise<string>;
}

/** A daemon: its flags, checks, configuration and main function. */
export interface DaemonSpec<C> {
  /** Command name, e.g. `orch-scheduler`; also the generated certificate's file name. */
  name: string;
  description?: string;
  flagSets: FlagSetSpec[];
  /** Validation rules (e.g. `daemonValidators('scheduler')`); every problem is reported together. */
  validators?: FlagValidator[];
  /** Builds the configuration served at /configz and passed to run; defaults to the flag values. */
  buildConfig?: (flags: ParsedFlags, featureGates: FeatureGate) => C;
  run(ctx: DaemonContext<C>): void | DaemonHandle | Promise<void | DaemonHandle>;
  /** Replaces the default authenticator (client certificate or anonymous). */
  authenticate?: Authenticate;
  /** Replaces the default authorizer (forbid all but the always-allow paths). */
  authorize?: Authorize;
  /**
   * True for a daemon that serves its own secure port (the apiserver): the runner then starts no
   * health/metrics server of its own.
   */
  servesItself?: boolean;
  /**
   * True for a daemon with the deprecated insecure serving flags (--port, --address): health,
   * metrics and configz are also served over plain HTTP without authentication there, unless --port=0.
   */
  insecureServing?: boolean;
  /**
   * Accepted flags the daemon does not act on, each with why: a flag set on the command line (or in
   * the config file) is logged as `Flag --<name> is accepted but has no effect: <why>`.
   */
  noticeOnlyFlags?: Readonly<Record<string, string>>;
}

/** Flags every controller manager and the scheduler accept without acting on them. */
export const COMMON_NOTICE_ONLY_FLAGS: Readonly<Record<string, string>> = {
  'contention-profiling': 'Node.js has no lock contention profiles; --profiling serves CPU and heap profiles',
  'cloudx-container-registry-config': 'there is no container registry to configure',
};

/** Where the runner reads and writes; defaults to the real process. */
export interface RunEnvironment {
  argv?: readonly string[];
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  exit?: (code: number) => void;
  /** Emits SIGTERM/SIGINT (and `disconnect` when `launcherChannel`); defaults to `process`. */
  signals?: EventEmitter;
  /**
   * The process has an IPC channel to the process that started it (a launcher such as `npm start`);
   * by default, whether the real process (no `signals` given) has one.
   */
  launcherChannel?: boolean;
  /** How long a graceful stop may take once the launcher is gone; 10 s by default. */
  launcherGoneGraceMs?: number;
}

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** How long a daemon whose launcher is gone waits for its graceful stop before it exits anyway. */
const LAUNCHER_GONE_GRACE_MS = 10_000;

/** Paths Kubernetes always allows besides /healthz when the flag keeps its default. */
const DEFAULT_HEALTH_PATHS = ['/readyz', '/livez'];

/**
 * Runs a daemon: parse flags, --help/--version, config file, validation, logging, secure serving,
 * then `run`; on SIGTERM/SIGINT (or when the launcher that started it with an IPC channel is gone)
 * stops the daemon and the server and exits 0. Resolves with the exit
 * status it passed to `exit`. User mistakes are reported as messages, never stack traces.
 */
export async function runDaemon<C = Record<string, unknown>>(
  spec: DaemonSpec<C>,
  env: RunEnvironment = {},
): Promise<number> {
  const stdout = env.stdout ?? process.stdout;
  const stderr = env.stderr ?? process.stderr;
  const exit = env.exit ?? ((code: number) => process.exit(code));
  const finish = (code: number): number => {
    exit(code);
    return code;
  };
  const fail = (messages: string[]): number => {
    for (const message of messages) stderr.write(`Error: ${message}\n`);
    stderr.write(`Run '${spec.name} --help' for usage.\n`);
    return finish(1);
  };

  let flags: ParsedFlags;
  try {
    const parsed = parseFlags(env.argv ?? process.argv.slice(2), spec.flagSets, spec.name);
    flags = parsed.flags;
    if (flags.has('help') && flags.bool('help')) {
      stdout.write(formatHelp(spec.name, spec.description ?? '', spec.flagSets));
      return finish(0);
    }
    if (flags.has('version') && flags.value('version') !== 'false') {
      stdout.write(versionText(String(flags.value('version'))));
      return finish(0);
    }
    for (const warning of parsed.warnings) stderr.write(`${warning}\n`);
    if (flags.has('config') && flags.string('config') !== '') applyConfigFile(flags, flags.string('config'));
  } catch (err) {
    if (err instanceof FlagError) return fail([err.message]);
    throw err;
  }

  const problems = validateFlags(flags, spec.validators ?? []);
  if (problems.length > 0) return fail(problems);

  const featureGates = new FeatureGate(DEFAULT_FEATURE_GATES);
  if (flags.has('feature-gates')) featureGates.set(flags.get('feature-gates', 'mapStringBool'));
  const logger = new Logger(flags.has('logtostderr') ? loggingOptionsFromFlags(flags) : {}, {
    stderr,
    program: spec.name,
  });
  for (const [name, why] of Object.entries(spec.noticeOnlyFlags ?? {}))
    if (flags.has(name) && flags.changed(name))
      logger.info(`Flag --${name} is accepted but has no effect: ${why}`);
  const verbose = logger.v(1);
  if (verbose.enabled) {
    const names = flags.allSpecs().map((s) => s.name);
    for (const name of names.sort()) verbose.info(`FLAG: --${name}=${JSON.stringify(flags.format(name))}`);
  }

  if (flags.has('write-config-to') && flags.string('write-config-to') !== '') {
    writeConfigFile(flags, flags.string('write-config-to'));
    logger.info(`Wrote configuration to: ${flags.string('write-config-to')}`);
    logger.close();
    return finish(0);
  }

  const health = new HealthChecks();
  const metrics = new Registry();
  let server: SecureServer | undefined;
  let insecureServer: SecureServer | undefined;
  let handle: void | DaemonHandle;
  // A daemon started with an IPC channel to its launcher stops when the channel closes: the launcher
  // is gone, killed outright perhaps, and nothing else would stop the daemon, which runs in a process
  // group of its own. The channel itself does not keep the daemon running. Gone while the daemon is
  // still starting (run has not returned), it exits at once, as SIGTERM's default would end it.
  const signals = env.signals ?? process;
  const launcherChannel = env.launcherChannel ?? (env.signals === undefined && process.channel !== undefined);
  let starting = true;
  const goneWhileStarting = (): void => {
    if (!starting) return;
    starting = false;
    logger.info('The launcher is gone (its IPC channel closed) while starting, exiting');
    logger.close();
    exit(0);
  };
  if (launcherChannel) {
    if (env.signals === undefined) process.channel?.unref();
    signals.once('disconnect', goneWhileStarting);
  }
  try {
    const config = spec.buildConfig ? spec.buildConfig(flags, featureGates) : (flags.toObject() as C);
    logger.info(`Version: ${version.gitVersion}`);
    if (!spec.servesItself && flags.has('secure-port') && flags.number('secure-port') > 0) {
      const allow = flags.strings('authorization-always-allow-paths');
      server = new SecureServer({
        serving: secureServingOptionsFromFlags(flags, spec.name),
        logger,
        authenticate: spec.authenticate,
        authorize: spec.authorize,
        alwaysAllowPaths: flags.changed('authorization-always-allow-paths')
          ? allow
          : [...allow, ...DEFAULT_HEALTH_PATHS],
        health,
        metrics,
        configz: () => config,
        profiling: flags.has('profiling') && flags.bool('profiling'),
      });
      await server.start();
      if (!spec.authorize && flags.string('authorization-kubeconfig') !== '') {
        logger.warning(
          'delegated authorization is not available yet: requests outside --authorization-always-allow-paths are forbidden',
        );
      }
    }
    if (spec.insecureServing && flags.number('port') > 0) {
      insecureServer = new SecureServer({
        serving: {
          ...secureServingOptionsFromFlags(flags, spec.name),
          bindAddress: flags.string('address'),
          port: flags.number('port'),
        },
        logger,
        insecure: true,
        health,
        metrics,
        configz: () => config,
        profiling: flags.has('profiling') && flags.bool('profiling'),
      });
      await insecureServer.start();
    }
    handle = await spec.run({
      name: spec.name,
      flags,
      config,
      featureGates,
      logger,
      health,
      metrics,
      server,
    });
  } catch (err) {
    if (!starting) return 0;
    starting = false;
    logger.error(err instanceof FlagError ? err.message : `${spec.name} failed: ${errorMessage(err)}`);
    await server?.close();
    await insecureServer?.close();
    logger.close();
    return finish(1);
  }

  if (!starting) return 0;
  starting = false;
  const events: string[] = [...SHUTDOWN_SIGNALS];
  if (launcherChannel) {
    signals.off('disconnect', goneWhileStarting);
    events.push('disconnect');
  }
  const ended = await new Promise<{ signal: string } | { failure: string }>((resolve) => {
    const listeners = events.map((name) => {
      const listener = (): void => {
        for (const [n, l] of listeners) signals.off(n, l);
        resolve({ signal: name });
      };
      signals.on(name, listener);
      return [name, listener] as const;
    });
    void handle?.failed?.then((failure) => {
      for (const [n, l] of listeners) signals.off(n, l);
      resolve({ failure });
    });
  });
  const signal = 'signal' in ended ? ended.signal : undefined;
  if ('failure' in ended) logger.error(`${ended.failure}, shutting down`);
  else
    logger.info(
      signal === 'disconnect'
        ? 'The launcher is gone (its IPC channel closed), shutting down'
        : `Received ${signal}, shutting down`,
    );
  // With its launcher gone, nobody stops a daemon whose graceful stop hangs (its peers, the apiserver
  // among them, are stopping at the same time): it exits after a grace period, as a supervisor would
  // kill it.
  const deadline =
    signal === 'disconnect'
      ? setTimeout(() => {
          logger.error('stopping took longer than its grace period after the launcher went, exiting');
          logger.close();
          exit(1);
        }, env.launcherGoneGraceMs ?? LAUNCHER_GONE_GRACE_MS)
      : undefined;
  let code = 'failure' in ended ? 1 : 0;
  try {
    await handle?.stop?.();
  } catch (err) {
    logger.error(`stopping ${spec.name} failed: ${errorMessage(err)}`);
    code = 1;
  }
  await server?.close();
  await insecureServer?.close();
  clearTimeout(deadline);
  logger.close();
  return finish(code);
}
