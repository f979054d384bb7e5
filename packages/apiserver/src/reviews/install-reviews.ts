import type { RESTMapper, RESTMapping } from '@orch/api';
import type { Authorizer } from '../authz/authorizer';
import type { TokenAuthenticator } from '../authn/token-authenticator';
import type { VirtualHandler } from '../registry/custom-handlers';
import type { GenericStore } from '../registry/generic-store';
import { localSubjectAccessReviewHandler } from './local-subject-access-review';
import { selfSubjectAccessReviewHandler } from './self-subject-access-review';
import { selfSubjectReviewHandler } from './self-subject-review';
import { selfSubjectRulesReviewHandler } from './self-subject-rules-review';
import { subjectAccessReviewHandler } from './subject-access-review';
import { serviceAccountTokenHandler, type TokenRequestOptions } from './token-request';
import { tokenReviewHandler } from './token-review';

/** What the review handlers are installed on (the APIServer). */
export interface ReviewHost {
  readonly virtualHandlers: Map<string, VirtualHandler>;
  readonly mapper: RESTMapper;
  storeFor(mapping: RESTMapping): GenericStore;
}

export interface ReviewOptions {
  /** The server's authorizer (the one its request pipeline uses). */
  authorizer: Authorizer;
  /** The server's bearer-token authenticators. */
  tokens: TokenAuthenticator;
  apiAudiences: readonly string[];
  /** Serves serviceaccounts/token when set (needs `--service-account-signing-key-file`). */
  tokenRequest?: Omit<TokenRequestOptions, 'boundObject'>;
}

/**
 * Installs TokenReview, SelfSubjectReview, SubjectAccessReview, SelfSubjectAccessReview,
 * LocalSubjectAccessReview and SelfSubjectRulesReview, and the serviceaccounts/token subresource.
 */
export function installReviews(host: ReviewHost, options: ReviewOptions): void {
  const h = host.virtualHandlers;
  h.set('authentication.k8s.io/tokenreviews', tokenReviewHandler(options.tokens, options.apiAudiences));
  h.set('authentication.k8s.io/selfsubjectreviews', selfSubjectReviewHandler());
  h.set('authorization.k8s.io/subjectaccessreviews', subjectAccessReviewHandler(options.authorizer));
  h.set('authorization.k8s.io/selfsubjectaccessreviews', selfSubjectAccessReviewHandler(options.authorizer));
  h.set(
    'authorization.k8s.io/localsubjectaccessreviews',
    localSubjectAccessReviewHandler(options.authorizer),
  );
  h.set('authorization.k8s.io/selfsubjectrulesreviews', selfSubjectRulesReviewHandler(options.authorizer));
  const serviceAccounts = host.mapper.forResource('', 'v1', 'serviceaccounts');
  if (!options.tokenRequest || !serviceAccounts) return;
  const storeOf = (resource: string): GenericStore | undefined => {
    const m = host.mapper.forResource('', 'v1', resource);
    return m ? host.storeFor(m) : undefined;
  };
  host.storeFor(serviceAccounts).strategy.subresources.token = serviceAccountTokenHandler({
    ...options.tokenRequest,
    boundObject: async (kind, namespace, name) => {
      const resource = kind === 'Pod' ? 'pods' : 'secrets';
      const store = storeOf(resource);
      if (!store) throw new Error(`${resource} are not served`);
      return store.get({ namespace, apiVersion: 'v1', dryRun: false }, name);
    },
  });
}
