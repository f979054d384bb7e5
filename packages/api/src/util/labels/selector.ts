import { LabelRequirement, LabelSet } from './requirement';

/** A parsed label selector (Kubernetes' labels.Selector). Immutable. */
export interface LabelsSelector {
  /** Whether the labels match every requirement. Does not allocate. */
  matches(labels: LabelSet | undefined): boolean;
  /** True for the selector that matches everything. */
  empty(): boolean;
  /** Canonical string form: requirements sorted by key, joined with ','. */
  toString(): string;
  /** The requirements, sorted by key; `selectable` is false for the selector that matches nothing. */
  requirements(): { requirements: readonly LabelRequirement[]; selectable: boolean };
  /** A new selector with more requirements. */
  add(...reqs: LabelRequirement[]): LabelsSelector;
  /** The value `label` must equal (a `=`, `==` or single-value `in` requirement), if any. */
  requiresExactMatch(label: string): string | undefined;
}

function byKey(a: LabelRequirement, b: LabelRequirement): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

class RequirementsSelector implements LabelsSelector {
  private readonly reqs: readonly LabelRequirement[];
  private text: string | undefined;

  /** `reqs` must already be sorted by key. */
  constructor(reqs: readonly LabelRequirement[]) {
    this.reqs = reqs;
  }

  matches(labels: LabelSet | undefined): boolean {
    const reqs = this.reqs;
    for (let i = 0; i < reqs.length; i++) if (!reqs[i]!.matches(labels)) return false;
    return true;
  }

  empty(): boolean {
    return this.reqs.length === 0;
  }

  toString(): string {
    return (this.text ??= this.reqs.map((r) => r.toString()).join(','));
  }

  requirements() {
    return { requirements: this.reqs, selectable: true };
  }

  add(...reqs: LabelRequirement[]): LabelsSelector {
    if (reqs.length === 0) return this;
    return new RequirementsSelector([...this.reqs, ...reqs].sort(byKey));
  }

  requiresExactMatch(label: string): string | undefined {
    for (const r of this.reqs) {
      if (r.key !== label) continue;
      switch (r.operator) {
        case '=':
        case '==':
        case 'in':
          if (r.values.length === 1) return r.values[0];
          return undefined;
        default:
          return undefined;
      }
    }
    return undefined;
  }
}

class NothingSelector implements LabelsSelector {
  matches(): boolean {
    return false;
  }
  empty(): boolean {
    return false;
  }
  toString(): string {
    return '';
  }
  requirements() {
    return { requirements: [] as readonly LabelRequirement[], selectable: false };
  }
  add(): LabelsSelector {
    return this;
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
}

const EVERYTHING: LabelsSelector = new RequirementsSelector([]);
const NOTHING: LabelsSelector = new NothingSelector();

/** The selector matching every object (the empty selector). */
export function everythingLabels(): LabelsSelector {
  return EVERYTHING;
}

/** The selector matching no object (what a nil LabelSelector converts to). */
export function nothingLabels(): LabelsSelector {
  return NOTHING;
}

/** A selector from requirements, sorted by key (stable for equal keys). */
export function selectorFromRequirements(reqs: readonly LabelRequirement[]): LabelsSelector {
  if (reqs.length === 0) return EVERYTHING;
  return new RequirementsSelector([...reqs].sort(byKey));
}
