/* Test support for the authentication, authorization and review tests: certificates and HTTPS calls. */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSigningKey } from '@orch/component-base';
import forge from 'node-forge';
import { httpsRequest } from '../testing/https-request';
import { startTestAPIServer, type TestAPIServer, type TestKubeconfigUser } from '../testing/test-apiserver';
import { enableAccessControl, type AccessControl, type AccessControlOptions } from './access-control';

/** A PEM certificate and its private key. */
export interface TestCertificate {
  cert: string;
  key: string;
}

export interface TestCertificateSpec {
  commonName: string;
  organizations?: string[];
  ca?: boolean;
  /** Extended key usages; clientAuth when omitted (none for a CA). */
  extKeyUsage?: ('clientAuth' | 'serverAuth')[];
  notBefore?: Date;
  notAfter?: Date;
}

/** Issues a certificate for tests, signed by `issuer` (self-signed without one). */
export function issueTestCertificate(spec: TestCertificateSpec, issuer?: TestCertificate): TestCertificate {
  const { privateKey, publicKey } = createSigningKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = spec.notBefore ?? new Date(Date.now() - 3600_000);
  cert.validity.notAfter = spec.notAfter ?? new Date(Date.now() + 24 * 3600_000);
  const subject = [
    { name: 'commonName', value: spec.commonName },
    ...(spec.organizations ?? []).map((value) => ({ name: 'organizationName', value })),
  ];
  cert.setSubject(subject);
  cert.setIssuer(issuer ? forge.pki.certificateFromPem(issuer.cert).subject.attributes : subject);
  const usages = spec.extKeyUsage ?? (spec.ca ? [] : ['clientAuth']);
  cert.setExtensions([
    { name: 'basicConstraints', cA: Boolean(spec.ca), critical: true },
    spec.ca
      ? { name: 'keyUsage', critical: true, keyCertSign: true, cRLSign: true, digitalSignature: true }
      : { name: 'keyUsage', critical: true, digitalSignature: true, keyEncipherment: true },
    ...(usages.length
      ? [
          {
            name: 'extKeyUsage',
            clientAuth: usages.includes('clientAuth'),
            serverAuth: usages.includes('serverAuth'),
          },
        ]
      : []),
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(issuer ? issuer.key : privateKey), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: privateKey };
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  token?: string;
  clientCertificate?: TestCertificate;
  /** Further request headers; a list is sent as one header line per value. */
  headers?: Record<string, string | string[]>;
}

export interface CallResult {
  status: number;
  body: any;
}

/** One HTTPS request to a test server (trusting its certificate); `body` is the parsed JSON answer, or its text. */
export async function call(
  server: { url: string; ca: string },
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const r = await httpsRequest(new URL(path, server.url).toString(), {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    ca: server.ca,
    ...(options.body === undefined ? {} : { body: options.body }),
    headers: { ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    ...(options.clientCertificate
      ? { cert: options.clientCertificate.cert, key: options.clientCertificate.key }
      : {}),
  });
  return { status: r.status, body: r.json ?? r.body.toString('utf8') };
}

export interface SecuredServerOptions extends Omit<AccessControlOptions, 'tokenAuthFile'> {
  /** Contents of the token file (`token,user,uid,"groups"` lines). */
  tokenFile?: string;
  kubeconfigUsers?: TestKubeconfigUser[];
}

export interface SecuredServer extends TestAPIServer {
  access: AccessControl;
}

/** A test server with access control enabled as orch-apiserver's flags would (the admin-token user is in system:masters). */
export async function startSecuredServer(options: SecuredServerOptions): Promise<SecuredServer> {
  const { tokenFile, kubeconfigUsers, ...rest } = options;
  const server = await startTestAPIServer(options.clientCA ? { clientCA: options.clientCA } : {}, {
    kubeconfigUsers: kubeconfigUsers ?? [],
  });
  const tokenAuthFile = join(server.dir, 'tokens.csv');
  writeFileSync(tokenAuthFile, `admin-token,admin,admin-uid,"system:masters"\n${tokenFile ?? ''}`);
  const access = await enableAccessControl(server.server, { ...rest, tokenAuthFile });
  return {
    ...server,
    access,
    async close() {
      access.close();
      await server.close();
    },
  };
}
