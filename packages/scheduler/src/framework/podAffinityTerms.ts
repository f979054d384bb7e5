import { labelSelectorAsSelector, type LabelsSelector, type Pod, type PodAffinityTerm } from '@orch/api';

type Labels = Readonly<Record<string, string>>;

/** A pod affinity term compiled once per pod. */
export interface AffinityTerm {
  selector: LabelsSelector;
  /** The namespaces named by the term; the pod's own when neither namespaces nor namespaceSelector is set. */
  namespaces: ReadonlySet<string>;
  /** Namespaces by their labels; undefined selects none. */
  namespaceSelector: LabelsSelector | undefined;
  topologyKey: string;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  weight: number;
}

/** A pod's inter-pod affinity, compiled. */
export interface PodAffinityInfo {
  requiredAffinity: readonly AffinityTerm[];
  requiredAntiAffinity: readonly AffinityTerm[];
  preferredAffinity: readonly WeightedAffinityTerm[];
  preferredAntiAffinity: readonly WeightedAffinityTerm[];
  /** Why a term could not be compiled; such a set of terms is left empty. */
  error?: string;
}

const EMPTY: PodAffinityInfo = {
  requiredAffinity: [],
  requiredAntiAffinity: [],
  preferredAffinity: [],
  preferredAntiAffinity: [],
};

/**
 * Whether the term selects `pod`: the pod's namespace is among the term's namespaces or its labels
 * (`namespaceLabels`) match the namespace selector, and the pod's labels match the label selector.
 */
export function termMatches(term: AffinityTerm, pod: Pod, namespaceLabels: Labels | undefined): boolean {
  const ns = pod.metadata?.namespace ?? '';
  if (!term.namespaces.has(ns) && !(term.namespaceSelector?.matches(namespaceLabels ?? {}) ?? false))
    return false;
  return term.selector.matches(pod.metadata?.labels ?? {});
}

/** Whether every term selects `pod` (false when there are none). */
export function allTermsMatch(
  terms: readonly AffinityTerm[],
  pod: Pod,
  namespaceLabels: Labels | undefined,
): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!termMatches(t, pod, namespaceLabels)) return false;
  return true;
}

function compileTerm(pod: Pod, term: PodAffinityTerm): AffinityTerm {
  const namespaceSelector =
    term.namespaceSelector === undefined || term.namespaceSelector === null
      ? undefined
      : labelSelectorAsSelector(term.namespaceSelector);
  const names = term.namespaces ?? [];
  const namespaces = new Set(
    names.length === 0 && namespaceSelector === undefined ? [pod.metadata?.namespace ?? ''] : names,
  );
  return {
    selector: labelSelectorAsSelector(term.labelSelector),
    namespaces,
    namespaceSelector,
    topologyKey: term.topologyKey,
  };
}

const cache = new WeakMap<Pod, PodAffinityInfo>();

/**
 * The compiled pod affinity and anti-affinity of a pod, cached per pod object. A set of terms with
 * an invalid selector is left empty and the problem is reported in `error`.
 */
export function podAffinityInfo(pod: Pod): PodAffinityInfo {
  const affinity = pod.spec?.affinity;
  if (!affinity || (!affinity.podAffinity && !affinity.podAntiAffinity)) return EMPTY;
  let info = cache.get(pod);
  if (info !== undefined) return info;
  const errors: string[] = [];
  const compile = <T>(fn: () => T[]): T[] => {
    try {
      return fn();
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
      return [];
    }
  };
  const a = affinity.podAffinity;
  const anti = affinity.podAntiAffinity;
  info = {
    requiredAffinity: compile(() =>
      (a?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => compileTerm(pod, t)),
    ),
    requiredAntiAffinity: compile(() =>
      (anti?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => compileTerm(pod, t)),
    ),
    preferredAffinity: compile(() =>
      (a?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => ({
        ...compileTerm(pod, w.podAffinityTerm),
        weight: w.weight,
      })),
    ),
    preferredAntiAffinity: compile(() =>
      (anti?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => ({
        ...compileTerm(pod, w.podAffinityTerm),
        weight: w.weight,
      })),
    ),
    ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
  };
  cache.set(pod, info);
  return info;
}
