import { Command, CommanderError, Option } from 'commander';
import type { FlagSetSpec, FlagSpec } from './flagSpec';
import { FlagError } from './flagError';
import { flagCodec, zeroValue } from './flagTypes';
import { ParsedFlags } from './parsedFlags';

/** The outcome of parsing a command line. */
export interface ParseResult {
  flags: ParsedFlags;
  /** `Flag --X has been deprecated, <msg>` for each deprecated flag used. */
  warnings: string[];
}

/** Kubernetes' word-separator normalization: `_` and `-` are the same in flag names. */
export function normalizeFlagName(name: string): string {
  return name.replace(/_/g, '-');
}

/** Indexes the declarations by name, filling zero defaults; duplicate names are a programming error. */
export function indexFlags(sets: readonly FlagSetSpec[]): Map<string, FlagSpec> {
  const byName = new Map<string, FlagSpec>();
  const shorthands = new Set<string>();
  for (const set of sets) {
    for (const spec of set.flags) {
      if ([...byName.keys()].some((n) => normalizeFlagName(n) === normalizeFlagName(spec.name))) {
        throw new Error(`flag --${spec.name} is declared twice`);
      }
      if (spec.shorthand) {
        if (shorthands.has(spec.shorthand)) throw new Error(`shorthand -${spec.shorthand} is declared twice`);
        shorthands.add(spec.shorthand);
      }
      byName.set(spec.name, { ...spec, default: spec.default ?? zeroValue(spec.type) });
    }
  }
  return byName;
}

/** Pushes a valued flag and the argument after it (its value, whatever it looks like). */
function pushWithValue(out: string[], flagArg: string, argv: readonly string[], i: number): number {
  out.push(flagArg);
  if (i + 1 < argv.length) {
    out.push(argv[i + 1]);
    return i + 1;
  }
  return i;
}

/** Rewrites pflag-style arguments into the long `--name[=value]` forms commander accepts. */
function normalizeArgs(
  argv: readonly string[],
  specs: ReadonlyMap<string, FlagSpec>,
  command: string,
): string[] {
  const positional: string[] = [];
  const byShort = new Map<string, FlagSpec>();
  const byNormalName = new Map<string, FlagSpec>();
  for (const spec of specs.values()) {
    if (spec.shorthand) byShort.set(spec.shorthand, spec);
    byNormalName.set(normalizeFlagName(spec.name), spec);
  }
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const given = arg.slice(2).split('=', 1)[0];
      const spec = byNormalName.get(normalizeFlagName(given));
      if (!spec) throw new FlagError(`unknown flag: --${given}`);
      const name = spec.name;
      if (arg.includes('=')) out.push(`--${name}${arg.slice(2 + given.length)}`);
      else if (flagCodec(spec.type).boolLike) out.push(`--${name}=true`);
      else i = pushWithValue(out, `--${name}`, argv, i);
    } else if (arg.startsWith('-') && arg.length > 1) {
      const short = arg[1];
      const spec = byShort.get(short);
      if (!spec) throw new FlagError(`unknown shorthand flag: '${short}' in ${arg}`);
      const rest = arg.slice(2);
      if (rest.startsWith('=')) out.push(`--${spec.name}=${rest.slice(1)}`);
      else if (rest !== '') out.push(`--${spec.name}=${rest}`);
      else if (flagCodec(spec.type).boolLike) out.push(`--${spec.name}=true`);
      else i = pushWithValue(out, `--${spec.name}`, argv, i);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length > 0) {
    throw new FlagError(
      `${JSON.stringify(command)} does not take any arguments, got ${JSON.stringify(positional)}`,
    );
  }
  return out;
}

function commanderMessage(err: CommanderError): string {
  const option = /'(--[^' ]+)/.exec(err.message)?.[1] ?? '';
  switch (err.code) {
    case 'commander.unknownOption':
      return `unknown flag: ${option}`;
    case 'commander.optionMissingArgument':
      return `flag needs an argument: ${option}`;
    default:
      return err.message.replace(/^error: /, '');
  }
}

/**
 * Parses `argv` (without the node and script entries) against the declared flag sets.
 * Accepts `--flag value`, `--flag=value`, `-v 4`, `-v=4`, `--bool`, `--bool=false`; lists repeat;
 * `_` and `-` are interchangeable in names (`--concurrent_rc_syncs` = `--concurrent-rc-syncs`).
 * Daemons take no positional arguments. Throws FlagError for unknown flags, bad values and arguments.
 */
export function parseFlags(
  argv: readonly string[],
  sets: readonly FlagSetSpec[],
  command = 'orch',
): ParseResult {
  const specs = indexFlags(sets);
  const flags = new ParsedFlags(specs);
  const warnings: string[] = [];
  const program = new Command();
  program
    .helpOption(false)
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  for (const spec of specs.values()) {
    const boolLike = flagCodec(spec.type).boolLike;
    const option = new Option(`--${spec.name} ${boolLike ? '[value]' : '<value>'}`);
    option.argParser((text: string) => {
      flags.setText(spec.name, text);
      if (spec.deprecated !== undefined) {
        const warning = `Flag --${spec.name} has been deprecated, ${spec.deprecated}`;
        if (!warnings.includes(warning)) warnings.push(warning);
      }
      return text;
    });
    program.addOption(option);
  }
  try {
    program.parse(normalizeArgs(argv, specs, command), { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) throw new FlagError(commanderMessage(err));
    throw err;
  }
  return { flags, warnings };
}
