import type { FlagType, FlagTypeMap } from './flagTypes';

/** One flag, declared as data. */
export interface FlagSpec<T extends FlagType = FlagType> {
  /** Long name without dashes, exactly as given on the command line (e.g. `concurrent_rc_syncs`). */
  name: string;
  type: T;
  /** Default value; the type's zero value when omitted. */
  default?: FlagTypeMap[T];
  help: string;
  /** Single-letter shorthand (`v` for `-v`). */
  shorthand?: string;
  /** When set, the flag is hidden from help and using it prints `Flag --X has been deprecated, <msg>`. */
  deprecated?: string;
  hidden?: boolean;
  /** Dotted path of the matching field in a `--config` file. */
  configKey?: string;
}

/** A named group of flags, printed as one help section (`<name> flags:`). */
export interface FlagSetSpec {
  name: string;
  flags: FlagSpec[];
}

/** Declares one flag with its default checked against its type. */
export function flag<T extends FlagType>(spec: FlagSpec<T>): FlagSpec {
  return spec as unknown as FlagSpec;
}
