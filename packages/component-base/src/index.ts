// Options: flag types, declarations, parsing, help, validation and config files.
export { errorMessage, isErrorLike } from './errorMessage';
export { formatDuration, parseDuration } from './options/duration';
export {
  flagCodec,
  isCIDR,
  parseGoBool,
  splitList,
  zeroValue,
  type FlagCodec,
  type FlagType,
  type FlagTypeMap,
  type ModuleSpecEntry,
  type NamedCertKey,
  type TraceLocation,
} from './options/flagTypes';
export { flag, type FlagSetSpec, type FlagSpec } from './options/flagSpec';
export { FlagError } from './options/flagError';
export { ParsedFlags, flagDisplayName } from './options/parsedFlags';
export { indexFlags, normalizeFlagName, parseFlags, type ParseResult } from './options/parseFlags';
export { formatFlagUsages, formatHelp } from './options/helpText';
export { applyConfigFile, writeConfigFile } from './options/configFile';
export {
  authenticationOptionsFromFlags,
  authorizationOptionsFromFlags,
  clientConnectionOptionsFromFlags,
  leaderElectionOptionsFromFlags,
  requestHeaderOptionsFromFlags,
  type AuthenticationOptions,
  type AuthorizationOptions,
  type RequestHeaderOptions,
  type ClientConnectionOptions,
  type LeaderElectionOptions,
} from './options/componentOptions';
export { daemonValidators, validateFlags, type FlagValidator } from './options/validateFlags';
export {
  nodeIpamConfig,
  RANGE_ALLOCATOR,
  type NodeIpamConfig,
  type NodeIpamFlagValues,
  type ParsedCIDR,
} from './options/nodeIpamConfig';
export { restConfigFromFlags } from './options/restConfigFromFlags';
export { PROTOBUF_CONTENT_TYPE, SYSTEM_NAMESPACE, type DaemonKind } from './options/daemonKind';
export {
  CLOUD_CONTROLLER_MANAGER_CONTROLLERS,
  CLOUD_CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  CONTROLLER_MANAGER_CONTROLLERS,
  CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  isControllerEnabled,
  resolveControllers,
  validateControllers,
} from './options/controllers';
export {
  DEFAULT_LEADER_ELECTION_RESOURCE_NAMES,
  DEFAULT_SECURE_PORTS,
  cloudControllerManagerFlagSets,
  controllerManagerFlagSets,
  daemonFlagSets,
  schedulerFlagSets,
} from './options/daemonFlagSets';
export { secureServingFlags } from './options/flagSets/secureServingFlags';
export { insecureServingFlags } from './options/flagSets/insecureServingFlags';
export { authenticationFlags } from './options/flagSets/authenticationFlags';
export { authorizationFlags } from './options/flagSets/authorizationFlags';
export { leaderElectionFlags, legacyLockObjectFlags } from './options/flagSets/leaderElectionFlags';
export { loggingFlags } from './options/flagSets/loggingFlags';
export { debuggingFlags } from './options/flagSets/debuggingFlags';
export { featureGateFlags } from './options/flagSets/featureGateFlags';
export { clientConnectionFlags } from './options/flagSets/clientConnectionFlags';
export { miscFlags } from './options/flagSets/miscFlags';
export { schedulerDeprecatedFlags, schedulerMiscFlags } from './options/flagSets/schedulerFlags';
export {
  cloudControllerManagerOwnFlags,
  controllerManagerControllerFlagSets,
  genericControllerManagerFlags,
  serviceControllerFlags,
} from './options/flagSets/controllerManagerFlags';

// Feature gates.
export { ALL_ALPHA, FeatureGate, type FeatureSpec, type PreRelease } from './featuregate/featureGate';
export { DEFAULT_FEATURE_GATES, newFeatureGates } from './featuregate/defaultFeatureGates';

// Logging.
export { Logger, Verbose, type LoggerDeps } from './logs/logger';
export { DEFAULT_LOGGING_OPTIONS, loggingOptionsFromFlags, type LoggingOptions } from './logs/loggingOptions';
export { klogHeader, SEVERITY_NAMES, type Severity } from './logs/klogHeader';
export { callerLocation, type CallerLocation } from './logs/callerLocation';
export { vmoduleLevel } from './logs/vmodule';
export { formatValue, keyValuePairs, structuredText } from './logs/structuredText';
export { FileTransport, type FileTransportOptions } from './logs/fileTransport';
export { StreamTransport } from './logs/streamTransport';

// Secure serving.
export { tlsHandshake } from './server/testHttps';
export { SecureServer, type RouteHandler, type SecureServerOptions } from './server/secureServer';
export { serveUpgrades, upgradeOf, type UpgradeConnection } from './server/upgrade';
export { secureServingOptionsFromFlags, type SecureServingOptions } from './server/secureServingOptions';
export { servingCertKey, sniCallback, tlsServerOptions } from './server/tlsServerOptions';
export {
  ensureSelfSignedCertKey,
  generateSelfSignedCertificate,
  generateSelfSignedCertKey,
  type CertificateRequest,
  type CertKeyPair,
  type StoredCertKey,
} from './server/selfSignedCert';
export { SniSelector, certificateNames, type SniCertificate } from './server/sniSelector';
export {
  CIPHER_SUITES,
  TLS_VERSIONS,
  cipherSuiteErrors,
  opensslCipherList,
  tlsMinVersion,
  tlsMinVersionErrors,
  tlsServerTuning,
} from './server/tlsSettings';
export {
  HEALTH_ENDPOINTS,
  HealthChecks,
  PING_CHECK,
  type HealthCheck,
  type HealthEndpoint,
  type PlainResponse,
} from './server/healthChecks';
export {
  ANONYMOUS_USER,
  certificateOrAnonymous,
  denyAll,
  isAlwaysAllowed,
  type Authenticate,
  type AuthorizationDecision,
  type Authorize,
  type UserInfo,
} from './server/delegatedAuth';
export { failureStatus, type StatusBody } from './server/status';
export { cpuProfile, heapSnapshot } from './server/profiling';
export { loopbackDaemonArgs } from './server/loopbackDaemonArgs';

// Version.
export { version, versionText, type VersionInfo } from './version/version';

// Daemon runner.
export {
  runDaemon,
  COMMON_NOTICE_ONLY_FLAGS,
  type DaemonContext,
  type DaemonHandle,
  type DaemonSpec,
  type RunEnvironment,
} from './app/runDaemon';

// Certificates and kubeconfigs for clusters.
export * from './certs';

// Delegated authentication and authorization (TokenReview / SubjectAccessReview).
export { requestHeaderAuthenticator, type RequestHeaderConfig } from './auth/requestHeaderAuthenticator';
export { loadCABundleFile, parseCABundle } from './auth/clientCertificates';
export {
  delegatedAuthFromFlags,
  DeferredDelegatedAuth,
  type DelegatedAuthHooks,
} from './auth/delegatedAuthFromFlags';
export { withDelegatedAuth } from './auth/withDelegatedAuth';

// Service-account tokens: what the apiserver and the tokens controller both sign.
export {
  jwtAlgorithm,
  keyID,
  legacyServiceAccountClaims,
  legacyServiceAccountIssuer,
  parsePrivateKeyPEM,
  serviceAccountUsername,
  signJWT,
  signLegacyServiceAccountToken,
  type LegacyTokenSubject,
} from './auth/serviceAccountToken';

// Controller machinery shared by the controller managers.
export type {
  ControllerContext,
  ControllerDescriptor,
  ControllerFlags,
  ControllerLogger,
  FeatureGates,
  RunningController,
} from './controller/ControllerContext';
export { featureEnabled } from './controller/ControllerContext';
export { QueueController, deletedObject } from './controller/QueueController';
export { ControllerGroup, type ControllerGroupOptions } from './controller/ControllerGroup';
export { runLeaderElected, type LeaderElectedOptions } from './controller/runLeaderElected';
export {
  runControllerManagerDaemon,
  type ControllerManagerDaemonContext,
  type ControllerManagerDaemonOptions,
  type ControllerManagerDeps,
  type ControllerManagerRunOptions,
  type StartableManager,
} from './controller/runControllerManagerDaemon';
export { CONTROLLER_TOKEN_SECONDS, ServiceAccountCredentials } from './controller/ServiceAccountCredentials';
export { MemoryEventRecorder } from './controller/MemoryEventRecorder';
