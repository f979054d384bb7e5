import { createPrivateKey, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  SignJWT,
  type JWTPayload,
} from 'jose';
import {
  jwtAlgorithm,
  keyID,
  legacyServiceAccountClaims as legacyClaim,
  legacyServiceAccountIssuer,
  serviceAccountUsername,
} from '@orch/component-base';
import { AuthenticationError } from './authentication-error';
import type { UserInfo } from './authenticator';
import { intersectAudiences, type TokenAuthenticator, type TokenResult } from './token-authenticator';

// The signing shared with the controller manager's tokens controller lives in component-base.
export {
  keyID,
  legacyServiceAccountIssuer,
  serviceAccountUsername,
  signLegacyServiceAccountToken,
} from '@orch/component-base';

/** Extra keys a pod-bound token adds to its user. */
export const serviceAccountExtra = {
  podName: 'authentication.kubernetes.io/pod-name',
  podUID: 'authentication.kubernetes.io/pod-uid',
  credentialID: 'authentication.kubernetes.io/credential-id',
} as const;

/** Clock skew tolerated on exp and nbf, as Kubernetes' default JWT leeway. */
const leewaySeconds = 60;

interface BoundClaims {
  namespace?: string;
  serviceaccount?: { name?: string; uid?: string };
  pod?: { name?: string; uid?: string };
  secret?: { name?: string; uid?: string };
}

/** The user a service account authenticates as. */
export function serviceAccountUser(
  namespace: string,
  name: string,
  uid: string,
  extra?: Record<string, string[]>,
): UserInfo {
  const user: UserInfo = {
    username: serviceAccountUsername(namespace, name),
    uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
  };
  if (extra && Object.keys(extra).length) user.extra = extra;
  return user;
}

/** Every key of the PEM blocks of a key file; private keys count for their public half. */
export function parsePublicKeys(pem: string): KeyObject[] {
  const blocks = pem.match(/-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g) ?? [];
  return blocks.map((b) =>
    /PRIVATE KEY/.test(b.split('\n')[0]!) ? createPublicKey(createPrivateKey(b)) : createPublicKey(b),
  );
}

export interface ServiceAccountTokenOptions {
  /** `--service-account-issuer` values; the first issues new tokens, every one is accepted. */
  issuers: readonly string[];
  /** `--service-account-key-file` contents: public (or private) keys in PEM, several allowed. */
  keys: readonly KeyObject[];
  /** `--api-audiences`: the audiences a token must have when the caller names none. */
  apiAudiences: readonly string[];
  /** Accept secret-based tokens (issuer kubernetes/serviceaccount). */
  acceptLegacy?: boolean;
  /**
   * Reads the objects a token names, as Kubernetes' token validators do: a bound token is refused
   * once its service account, pod or secret is gone (or being deleted, or replaced under the same
   * name); a secret-based one too with `lookupLegacy` (`--service-account-lookup`), and when its
   * secret no longer holds it. Without a getter, tokens are checked by their signature and claims
   * alone.
   */
  getter?: ServiceAccountObjectGetter;
  /** `--service-account-lookup` (default true): look up secret-based tokens too. */
  lookupLegacy?: boolean;
  now?: () => Date;
}

/** What the validators need of a ServiceAccount, Secret or Pod. */
export interface TokenObject {
  metadata: { uid?: string; deletionTimestamp?: string };
  data?: Record<string, string>;
}

/** Reads the ServiceAccounts, Secrets and Pods tokens name; undefined when there is none. */
export type ServiceAccountObjectGetter = (
  resource: 'serviceaccounts' | 'secrets' | 'pods',
  namespace: string,
  name: string,
) => Promise<TokenObject | undefined>;

/**
 * Service-account JWTs: secret-based tokens (issuer kubernetes/serviceaccount) and bound tokens
 * (issuer `--service-account-issuer`, audiences, expiry, the `kubernetes.io` claim). Tokens of
 * another issuer, or that are no JWT, are not this authenticator's.
 */
export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  private readonly now: () => Date;

  constructor(private readonly options: ServiceAccountTokenOptions) {
    this.now = options.now ?? (() => new Date());
  }

  static fromFiles(
    keyFiles: readonly string[],
    issuers: readonly string[],
    apiAudiences: readonly string[],
    lookup: Pick<ServiceAccountTokenOptions, 'getter' | 'lookupLegacy'> = {},
  ): ServiceAccountTokenAuthenticator {
    const keys = keyFiles.flatMap((f) => parsePublicKeys(readFileSync(f, 'utf8')));
    return new ServiceAccountTokenAuthenticator({
      issuers,
      keys,
      apiAudiences,
      acceptLegacy: true,
      ...lookup,
    });
  }

  async authenticateToken(token: string, audiences?: string[]): Promise<TokenResult | undefined> {
    let claims: JWTPayload;
    try {
      decodeProtectedHeader(token);
      claims = decodeJwt(token);
    } catch {
      return undefined;
    }
    const legacy = claims.iss === legacyServiceAccountIssuer;
    if (legacy ? this.options.acceptLegacy === false : !this.options.issuers.includes(String(claims.iss)))
      return undefined;
    const verified = await this.verifySignature(token);
    const user = legacy ? this.legacyUser(verified) : this.boundUser(verified);
    if (legacy) await this.lookUpLegacy(verified, token);
    else await this.lookUpBound(verified);
    const tokenAudiences =
      legacy || verified.aud === undefined ? [...this.options.apiAudiences] : [verified.aud].flat();
    const wanted = audiences ?? [...this.options.apiAudiences];
    const valid = intersectAudiences(tokenAudiences, wanted);
    if (!valid.length && this.options.apiAudiences.length) {
      throw new AuthenticationError(
        `token audiences ${goQuoted(tokenAudiences)} is invalid for the target audiences ${goQuoted(wanted)}`,
      );
    }
    return { user, audiences: valid };
  }

  private async verifySignature(token: string): Promise<JWTPayload> {
    let lastError: unknown;
    for (const key of this.options.keys) {
      try {
        const { payload } = await jwtVerify(token, key, {
          clockTolerance: leewaySeconds,
          currentDate: this.now(),
        });
        return payload;
      } catch (e) {
        if (e instanceof joseErrors.JWTExpired)
          throw new AuthenticationError('service account token has expired');
        if (e instanceof joseErrors.JWTClaimValidationFailed && e.claim === 'nbf') {
          throw new AuthenticationError('service account token is not valid yet');
        }
        lastError = e;
      }
    }
    const why =
      lastError instanceof joseErrors.JWSSignatureVerificationFailed || !lastError
        ? 'invalid signature'
        : String((lastError as Error).message);
    throw new AuthenticationError(`service account token could not be verified: ${why}`);
  }

  /** A secret-based token: its secret still holds it, and its service account is the one named. */
  private async lookUpLegacy(claims: JWTPayload, token: string): Promise<void> {
    const getter = this.options.getter;
    if (!getter || this.options.lookupLegacy === false) return;
    const namespace = String(claims[legacyClaim.namespace]);
    const secretName = String(claims[legacyClaim.secretName]);
    const secret = await getter('secrets', namespace, secretName);
    if (!secret || secret.metadata.deletionTimestamp)
      throw new AuthenticationError('Token has been invalidated');
    const held = secret.data?.token === undefined ? '' : Buffer.from(secret.data.token, 'base64').toString();
    if (held !== token) throw new AuthenticationError("Token does not match server's copy");
    await this.checkObject(
      'ServiceAccount',
      'serviceaccounts',
      namespace,
      String(claims[legacyClaim.serviceAccountName]),
      String(claims[legacyClaim.serviceAccountUID]),
    );
  }

  /** A bound token: its service account, and the pod or secret it is bound to, are still the ones named. */
  private async lookUpBound(claims: JWTPayload): Promise<void> {
    if (!this.options.getter) return;
    const bound = (claims['kubernetes.io'] ?? {}) as BoundClaims;
    const namespace = bound.namespace ?? '';
    const account = bound.serviceaccount ?? {};
    await this.checkObject('service account', 'serviceaccounts', namespace, account.name ?? '', account.uid);
    if (bound.pod?.name) await this.checkObject('pod', 'pods', namespace, bound.pod.name, bound.pod.uid);
    if (bound.secret?.name)
      await this.checkObject('secret', 'secrets', namespace, bound.secret.name, bound.secret.uid);
  }

  /** The object exists, is not being deleted, and has the uid the token names (when it names one). */
  private async checkObject(
    what: string,
    resource: 'serviceaccounts' | 'secrets' | 'pods',
    namespace: string,
    name: string,
    uid: string | undefined,
  ): Promise<void> {
    const obj = await this.options.getter!(resource, namespace, name);
    if (!obj || obj.metadata.deletionTimestamp)
      throw new AuthenticationError(`${what} ${namespace}/${name} has been deleted`);
    if (uid && obj.metadata.uid !== uid)
      throw new AuthenticationError(`${what} UID (${obj.metadata.uid ?? ''}) does not match claim (${uid})`);
  }

  private legacyUser(claims: JWTPayload): UserInfo {
    const get = (k: string): string => (typeof claims[k] === 'string' ? (claims[k] as string) : '');
    const namespace = get(legacyClaim.namespace);
    const name = get(legacyClaim.serviceAccountName);
    const uid = get(legacyClaim.serviceAccountUID);
    if (!namespace) throw new AuthenticationError('namespace claim is missing');
    if (!get(legacyClaim.secretName)) throw new AuthenticationError('secretName claim is missing');
    if (!name) throw new AuthenticationError('serviceAccountName claim is missing');
    if (!uid) throw new AuthenticationError('serviceAccountUID claim is missing');
    if (claims.sub !== serviceAccountUsername(namespace, name))
      throw new AuthenticationError('sub claim is invalid');
    return serviceAccountUser(namespace, name, uid);
  }

  private boundUser(claims: JWTPayload): UserInfo {
    if (claims.exp === undefined) throw new AuthenticationError('service account token has no expiration');
    const bound = (claims['kubernetes.io'] ?? {}) as BoundClaims;
    const namespace = bound.namespace ?? '';
    const name = bound.serviceaccount?.name ?? '';
    if (!namespace || !name)
      throw new AuthenticationError('service account token claims could not be validated');
    if (claims.sub !== serviceAccountUsername(namespace, name))
      throw new AuthenticationError('sub claim is invalid');
    const extra: Record<string, string[]> = {};
    if (bound.pod?.name) extra[serviceAccountExtra.podName] = [bound.pod.name];
    if (bound.pod?.uid) extra[serviceAccountExtra.podUID] = [bound.pod.uid];
    if (claims.jti) extra[serviceAccountExtra.credentialID] = [`JTI=${claims.jti}`];
    return serviceAccountUser(namespace, name, bound.serviceaccount?.uid ?? '', extra);
  }
}

function goQuoted(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

/** What a token is issued for (a TokenRequest, or a secret for a legacy token). */
export interface ServiceAccountTokenRequest {
  namespace: string;
  name: string;
  uid: string;
  audiences: readonly string[];
  expirationSeconds: number;
  /** The object the token is bound to. */
  boundObject?: { kind: 'Pod' | 'Secret'; name: string; uid: string };
  now?: Date;
}

export interface SignedToken {
  token: string;
  expirationTimestamp: Date;
}

/** Issues a bound service-account token signed with `--service-account-signing-key-file`. */
export async function signServiceAccountToken(
  privateKeyPem: string | KeyObject,
  issuer: string,
  request: ServiceAccountTokenRequest,
): Promise<SignedToken> {
  const key = typeof privateKeyPem === 'string' ? createPrivateKey(privateKeyPem) : privateKeyPem;
  const now = request.now ?? new Date();
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + request.expirationSeconds;
  const bound: BoundClaims = {
    namespace: request.namespace,
    serviceaccount: { name: request.name, uid: request.uid },
  };
  if (request.boundObject?.kind === 'Pod')
    bound.pod = { name: request.boundObject.name, uid: request.boundObject.uid };
  if (request.boundObject?.kind === 'Secret')
    bound.secret = { name: request.boundObject.name, uid: request.boundObject.uid };
  const token = await new SignJWT({ 'kubernetes.io': bound as Record<string, unknown> })
    .setProtectedHeader({ alg: jwtAlgorithm(key), kid: keyID(key) })
    .setIssuer(issuer)
    .setSubject(serviceAccountUsername(request.namespace, request.name))
    .setAudience([...request.audiences])
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(key);
  return { token, expirationTimestamp: new Date(exp * 1000) };
}
