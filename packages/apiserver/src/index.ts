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
export { apiserverNodeOptions } from './server/node-options';
export { startTestAPIServer, type TestAPIServer } from './testing/test-apiserver';
export * from './storage';
export {
  startAPIServerProcess,
  type APIServerProcess,
  type APIServerProcessOptions,
} from './testing/apiserver-process';
export {
  daemonBin,
  keepLogs,
  startDaemon,
  waitHTTPS,
  repoRoot,
  type DaemonProcess,
} from './testing/daemon-process';
export {
  EtcdCluster,
  type EtcdMember,
  type EtcdClusterOptions,
  type EtcdClusterTLS,
} from './storage/testing/etcd-cluster';
export { freePort } from './storage/testing/free-port';
export { eventually } from './testing/eventually';
export { startEchoServer, startNodePortEchoServer, tcpExchange } from './testing/tcp-echo';
export { httpsRequest, type HttpsResponse, type HttpsRequestOptions } from './testing/https-request';
export { enableAccessControl, type AccessControlOptions, type AccessControl } from './reviews/access-control';
export { AlwaysDenyAuthorizer } from './authz/authorizer';
export { signServiceAccountToken, ServiceAccountTokenAuthenticator } from './authn/service-account-token';
export { ServiceIPAllocator, AllocationError } from './registry/strategies/service-ip-allocator';
export {
  issueTestCertificate,
  startSecuredServer,
  type SecuredServer,
  type TestCertificate,
} from './reviews/access-test-support';
export {
  controllerClusterRoleBindings,
  controllerClusterRoles,
  controllerRoleBindings,
  controllerRoles,
  controllerServiceAccountNamespace,
} from './authz/controller-roles';
