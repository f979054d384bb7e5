import {
  AlwaysAllowAuthorizer,
  AlwaysDenyAuthorizer,
  PrivilegedGroupsAuthorizer,
  UnionAuthorizer,
  type AuthorizationResult,
  type Authorizer,
  type RulesResult,
} from './authorizer';
import { PolicyCache } from './policy-cache';
import { RBACAuthorizer } from './rbac-authorizer';
import type { RBACStores } from './rbac-objects';

export const authorizationModes = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export type AuthorizationMode = (typeof authorizationModes)[number];

/** Modes orch-apiserver implements. */
const supportedModes: readonly AuthorizationMode[] = ['AlwaysAllow', 'AlwaysDeny', 'RBAC', 'Node'];

/** Parses `--authorization-mode` (a comma-separated, ordered list) with kube-apiserver's checks. */
export function parseAuthorizationModes(value: string | readonly string[]): AuthorizationMode[] {
  const items = (typeof value === 'string' ? value.split(',') : value.flatMap((v) => v.split(',')))
    .map((m) => m.trim())
    .filter(Boolean);
  if (!items.length) throw new Error('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const m of items) {
    if (!(authorizationModes as readonly string[]).includes(m))
      throw new Error(`authorization-mode "${m}" is not a valid mode`);
    if (!supportedModes.includes(m as AuthorizationMode))
      throw new Error(`authorization-mode "${m}" is not supported by orch-apiserver`);
    if (seen.has(m)) throw new Error(`authorization-mode "${m}" has mode specified more than once`);
    seen.add(m);
  }
  return items as AuthorizationMode[];
}

/**
 * The Node mode: orch has no node authorizer of its own; nodes get their rights from the system:node
 * ClusterRole bound to the system:nodes group. It answers no opinion and cannot list rules.
 */
class NodeModeAuthorizer implements Authorizer {
  async authorize(): Promise<AuthorizationResult> {
    return { decision: 'NoOpinion', reason: '' };
  }

  async rulesFor(): Promise<RulesResult> {
    return { resourceRules: [], nonResourceRules: [], incomplete: true };
  }
}

export interface BuiltAuthorizer {
  authorizer: Authorizer;
  /** The RBAC policy cache when RBAC is on (started); stop it on shutdown. */
  policy?: PolicyCache;
  close(): void;
}

/**
 * The authorizer chain for the modes, in order, after the system:masters superuser check (as
 * kube-apiserver builds it). RBAC needs the stores of the four RBAC kinds; its cache is filled
 * before this returns.
 */
export async function buildAuthorizer(
  modes: readonly AuthorizationMode[],
  stores?: RBACStores,
): Promise<BuiltAuthorizer> {
  const chain: Authorizer[] = [new PrivilegedGroupsAuthorizer()];
  let policy: PolicyCache | undefined;
  for (const mode of modes) {
    switch (mode) {
      case 'AlwaysAllow':
        chain.push(new AlwaysAllowAuthorizer());
        break;
      case 'AlwaysDeny':
        chain.push(new AlwaysDenyAuthorizer());
        break;
      case 'Node':
        chain.push(new NodeModeAuthorizer());
        break;
      case 'RBAC':
        if (!stores) throw new Error('authorization-mode "RBAC" needs the RBAC stores');
        policy = new PolicyCache(stores);
        await policy.start();
        chain.push(new RBACAuthorizer(policy));
        break;
      default:
        throw new Error(`authorization-mode "${mode}" is not supported by orch-apiserver`);
    }
  }
  return {
    authorizer: new UnionAuthorizer(chain),
    ...(policy ? { policy } : {}),
    close: () => policy?.stop(),
  };
}
