import { readFileSync } from 'node:fs';
import {
  ensureSelfSignedCertKey,
  version,
  type DaemonContext,
  type DaemonHandle,
} from '@orch/component-base';
import { selectAdmissionPlugins } from '../admission/plugins';
import { APIServer } from '../server/apiserver';
import { enableAccessControl } from '../reviews/access-control';
import { apiserverOptions } from './apiserver-config';
import { createStorage } from './storage-factory';

/** Starts orch-apiserver from its flags; the returned handle stops it. */
export async function runAPIServer(ctx: DaemonContext<unknown>): Promise<DaemonHandle> {
  const options = apiserverOptions(ctx.flags);
  const admissionPlugins = selectAdmissionPlugins(
    options.enableAdmissionPlugins,
    options.disableAdmissionPlugins,
  );
  const pair =
    options.tlsCertFile && options.tlsPrivateKeyFile
      ? { cert: readFileSync(options.tlsCertFile), key: readFileSync(options.tlsPrivateKeyFile) }
      : ensureSelfSignedCertKey(options.certDir, 'apiserver', options.advertiseAddress ?? '127.0.0.1');
  const tls = {
    ...pair,
    minVersion: options.tlsMinVersion,
    cipherSuites: options.tlsCipherSuites,
    sniCertKeys: options.tlsSNICertKeys,
  };
  const storage = createStorage(options.storage);
  const server = new APIServer({
    storage,
    bindAddress: options.bindAddress,
    securePort: options.securePort,
    advertiseAddress: options.advertiseAddress
      ? `${options.advertiseAddress}:${options.securePort}`
      : undefined,
    tls,
    maxRequestsInflight: options.maxRequestsInflight,
    maxMutatingRequestsInflight: options.maxMutatingRequestsInflight,
    requestTimeoutMs: options.requestTimeoutMs,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds,
    watchCache: options.watchCache,
    admissionPlugins,
    version,
    serviceClusterIPRange: options.serviceClusterIPRange,
    serviceNodePortRange: options.serviceNodePortRange,
    timeToLive: { 'event-ttl': options.eventTTLSeconds },
    featureGates: ctx.featureGates,
    kubeletClient: {
      ...(options.kubelet.clientCertificate
        ? { cert: readFileSync(options.kubelet.clientCertificate, 'utf8') }
        : {}),
      ...(options.kubelet.clientKey ? { key: readFileSync(options.kubelet.clientKey, 'utf8') } : {}),
      ...(options.kubelet.certificateAuthority
        ? { ca: readFileSync(options.kubelet.certificateAuthority, 'utf8') }
        : {}),
      preferredAddressTypes: options.kubelet.preferredAddressTypes,
      timeoutMs: options.kubelet.timeoutMs,
    },
  });
  // the system namespaces and policy exist, and requests are authenticated, before the port opens
  await server.bootstrap();
  const access = await enableAccessControl(server, {
    clientCA: options.clientCAFile ? readFileSync(options.clientCAFile) : undefined,
    tokenAuthFile: options.tokenAuthFile || undefined,
    serviceAccountKeyFiles: options.serviceAccountKeyFiles,
    serviceAccountIssuers: options.serviceAccountIssuer ? [options.serviceAccountIssuer] : [],
    serviceAccountLookup: options.serviceAccountLookup,
    anonymousAuth: options.anonymousAuth,
    ...(options.requestHeader.clientCAFile
      ? {
          requestHeader: {
            requestHeaderCA: readFileSync(options.requestHeader.clientCAFile, 'utf8'),
            requestHeaderAllowedNames: options.requestHeader.allowedNames,
            requestHeaderUsernameHeaders: options.requestHeader.usernameHeaders,
            requestHeaderGroupHeaders: options.requestHeader.groupHeaders,
            requestHeaderExtraHeaderPrefixes: options.requestHeader.extraHeaderPrefixes,
          },
        }
      : {}),
    authorizationMode: options.authorizationModes,
    serviceAccountSigningKey: options.serviceAccountSigningKeyFile
      ? readFileSync(options.serviceAccountSigningKeyFile, 'utf8')
      : undefined,
  });
  await server.start();
  ctx.logger.info(`Serving securely on ${server.address()}`);
  return {
    async stop() {
      access.close();
      await server.close();
      await storage.close();
    },
  };
}
