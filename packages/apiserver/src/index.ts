export * from './errors';
export { APIServer, bootstrapNamespaces, type APIServerConfig } from './server/apiserver';
export {
  GenericStore,
  type RequestScope,
  type WriteOptions,
  type ListResult,
} from './registry/generic-store';
export { Strategy } from './registry/strategy';
export { strategyFor } from './registry/strategies';
export { parseRequestInfo, type RequestInfo } from './request/request-info';
export { AdmissionChain, type AdmissionPlugin, type AdmissionAttributes } from './admission/admission';
export { admissionPlugins, defaultAdmissionPlugins, selectAdmissionPlugins } from './admission/plugins';
export { anonymousUser, UnionAuthenticator, type Authenticator, type UserInfo } from './authn/authenticator';
export {
  AlwaysAllowAuthorizer,
  UnionAuthorizer,
  type Authorizer,
  type AuthorizationAttributes,
} from './authz/authorizer';
export { apiserverFlagSets } from './app/apiserver-flags';
export { runAPIServer } from './app/run-apiserver';
export { startTestAPIServer, type TestAPIServer } from './testing/test-apiserver';
export * from './storage';
