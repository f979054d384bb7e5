import type { NodeSelectorRequirement, NodeSelectorTerm } from '../../kinds/core/affinity';
import type { Node } from '../../kinds/core/node';
import type { Pod } from '../../kinds/core/pod';
import { newRequirement, type LabelOperator, type LabelRequirement } from '../labels/requirement';

const OPERATORS: Record<string, LabelOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
  Gt: 'gt',
  Lt: 'lt',
};

/** A compiled node selector term: label requirements ANDed, plus metadata.name field requirements. */
interface CompiledTerm {
  labels: LabelRequirement[];
  fields: { operator: string; values: readonly string[] }[];
  /** A term with an invalid requirement (or none at all) matches no node. */
  matchesNothing: boolean;
}

function compileRequirement(r: NodeSelectorRequirement): LabelRequirement | undefined {
  const op = OPERATORS[r.operator];
  if (op === undefined) return undefined;
  try {
    return newRequirement(r.key, op, r.values ?? []);
  } catch {
    return undefined;
  }
}

function compileTerm(term: NodeSelectorTerm): CompiledTerm {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  const compiled: CompiledTerm = {
    labels: [],
    fields: [],
    matchesNothing: exprs.length === 0 && fields.length === 0,
  };
  for (const e of exprs) {
    const r = compileRequirement(e);
    if (r === undefined) compiled.matchesNothing = true;
    else compiled.labels.push(r);
  }
  for (const f of fields) {
    // Only metadata.name is a supported field, with In or NotIn and a single value.
    if (
      f.key !== 'metadata.name' ||
      (f.operator !== 'In' && f.operator !== 'NotIn') ||
      (f.values ?? []).length !== 1
    )
      compiled.matchesNothing = true;
    else compiled.fields.push({ operator: f.operator, values: f.values ?? [] });
  }
  return compiled;
}

function termMatches(term: CompiledTerm, node: Node): boolean {
  if (term.matchesNothing) return false;
  const labels = node.metadata?.labels ?? {};
  for (let i = 0; i < term.labels.length; i++) if (!term.labels[i]!.matches(labels)) return false;
  const name = node.metadata?.name ?? '';
  for (const f of term.fields) {
    const found = f.values.includes(name);
    if (f.operator === 'In' ? !found : found) return false;
  }
  return true;
}

/** Node selector terms compiled once, ORed. */
export class NodeSelectorMatcher {
  private readonly terms: CompiledTerm[];

  constructor(terms: readonly NodeSelectorTerm[]) {
    this.terms = terms.map(compileTerm);
  }

  matches(node: Node): boolean {
    for (let i = 0; i < this.terms.length; i++) if (termMatches(this.terms[i]!, node)) return true;
    return false;
  }
}

/** A pod's hard node constraints: spec.nodeSelector and requiredDuringScheduling node affinity. */
export class RequiredNodeAffinity {
  private readonly selector: [string, string][];
  private readonly affinity: NodeSelectorMatcher | undefined;

  constructor(pod: Pod) {
    this.selector = Object.entries(pod.spec?.nodeSelector ?? {});
    const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    this.affinity = required ? new NodeSelectorMatcher(required.nodeSelectorTerms ?? []) : undefined;
  }

  get isEmpty(): boolean {
    return this.selector.length === 0 && this.affinity === undefined;
  }

  matches(node: Node): boolean {
    if (this.selector.length > 0) {
      const labels = node.metadata?.labels ?? {};
      for (const [k, v] of this.selector) if (labels[k] !== v) return false;
    }
    return this.affinity === undefined || this.affinity.matches(node);
  }
}
