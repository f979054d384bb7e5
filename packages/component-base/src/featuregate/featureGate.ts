/** Maturity of a feature gate. */
export type PreRelease = 'Alpha' | 'Beta' | 'GA' | 'Deprecated';

/** One known feature gate. */
export interface FeatureSpec {
  default: boolean;
  preRelease: PreRelease;
  /** GA gates locked to their default cannot be changed. */
  lockToDefault?: boolean;
}

/** The gate that turns on every alpha gate not set explicitly. */
export const ALL_ALPHA = 'AllAlpha';

/** A set of known feature gates and the values given for them. */
export class FeatureGate {
  private readonly known: ReadonlyMap<string, FeatureSpec>;
  private readonly explicit = new Map<string, boolean>();

  constructor(known: Readonly<Record<string, FeatureSpec>>) {
    this.known = new Map(Object.entries(known));
  }

  /**
   * Applies `name → value` settings (as given to `--feature-gates`).
   * Returns the problems found (`unrecognized feature gate: X`, locked gates); valid entries still apply.
   */
  set(values: Readonly<Record<string, boolean>>): string[] {
    const errors: string[] = [];
    for (const [name, value] of Object.entries(values)) {
      const spec = this.known.get(name);
      if (!spec) {
        errors.push(`unrecognized feature gate: ${name}`);
        continue;
      }
      if (spec.lockToDefault && value !== spec.default) {
        errors.push(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
        continue;
      }
      this.explicit.set(name, value);
    }
    return errors;
  }

  /** Whether a gate is on. Unknown names are a programming error. */
  enabled(name: string): boolean {
    const spec = this.known.get(name);
    if (!spec) throw new Error(`feature "${name}" is not registered in FeatureGate`);
    const explicit = this.explicit.get(name);
    if (explicit !== undefined) return explicit;
    if (spec.preRelease === 'Alpha' && name !== ALL_ALPHA && this.explicit.get(ALL_ALPHA) === true)
      return true;
    return spec.default;
  }

  /** Names of every known gate, sorted. */
  names(): string[] {
    return [...this.known.keys()].sort();
  }

  /** The state of every gate. */
  toObject(): Record<string, boolean> {
    return Object.fromEntries(this.names().map((n) => [n, this.enabled(n)]));
  }

  /** Help lines like `APIListChunking=true|false (BETA - default=true)`; GA and deprecated gates are omitted. */
  knownFeatures(): string[] {
    return this.names()
      .map((name) => [name, this.known.get(name)!] as const)
      .filter(([, spec]) => spec.preRelease !== 'GA' && spec.preRelease !== 'Deprecated')
      .map(
        ([name, spec]) => `${name}=true|false (${spec.preRelease.toUpperCase()} - default=${spec.default})`,
      );
  }
}
