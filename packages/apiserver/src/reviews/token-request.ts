import type { KeyObject } from 'node:crypto';
import { fieldErrors, type FieldError } from '@orch/api';
import { signServiceAccountToken } from '../authn/service-account-token';
import { statusErrors } from '../errors/status-error';
import type { SubresourceHandler } from '../registry/custom-handlers';
import { nowTime, type ApiObject } from '../registry/object';
import { invalidReview, reviewBody } from './review-object';

const minExpirationSeconds = 600;
const maxExpirationSeconds = 2 ** 32;
const boundKinds = ['Pod', 'Secret'] as const;

export interface TokenRequestOptions {
  /** `--service-account-signing-key-file` (PEM or key object). */
  signingKey: string | KeyObject;
  /** The first `--service-account-issuer`. */
  issuer: string;
  /** `--api-audiences`: the audiences of a token whose request names none. */
  apiAudiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; longer requests are shortened to it. */
  maxTokenExpirationSeconds?: number;
  /** Reads the object a token is to be bound to (throws a 404 StatusError when it does not exist). */
  boundObject?: (kind: (typeof boundKinds)[number], namespace: string, name: string) => Promise<ApiObject>;
  now?: () => Date;
}

interface TokenRequestSpec {
  audiences?: string[];
  expirationSeconds?: number;
  boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string };
}

function validate(body: ApiObject, name: string, namespace: string, spec: TokenRequestSpec): FieldError[] {
  const errors: FieldError[] = [];
  if (body.metadata.name && body.metadata.name !== name) {
    errors.push(
      fieldErrors.invalid(
        'metadata.name',
        body.metadata.name,
        'must match the service account name if specified',
      ),
    );
  }
  if (body.metadata.namespace && body.metadata.namespace !== namespace) {
    errors.push(
      fieldErrors.invalid(
        'metadata.namespace',
        body.metadata.namespace,
        'must match the service account namespace if specified',
      ),
    );
  }
  const seconds = spec.expirationSeconds;
  if (seconds !== undefined && seconds < minExpirationSeconds) {
    errors.push(
      fieldErrors.invalid(
        'spec.expirationSeconds',
        seconds,
        'may not specify a duration less than 10 minutes',
      ),
    );
  } else if (seconds !== undefined && seconds > maxExpirationSeconds) {
    errors.push(
      fieldErrors.invalid(
        'spec.expirationSeconds',
        seconds,
        'may not specify a duration larger than 2^32 seconds',
      ),
    );
  }
  const ref = spec.boundObjectRef;
  if (ref && !(boundKinds as readonly string[]).includes(ref.kind ?? '')) {
    errors.push(fieldErrors.notSupported('spec.boundObjectRef.kind', ref.kind ?? '', boundKinds));
  }
  return errors;
}

/**
 * The serviceaccounts/token subresource (POST a TokenRequest): issues a bound token for the service
 * account, optionally bound to a Pod or Secret of its namespace, answered 201 with status.token and
 * status.expirationTimestamp.
 */
export function serviceAccountTokenHandler(options: TokenRequestOptions): SubresourceHandler {
  return async (store, request) => {
    if (request.verb !== 'create')
      throw statusErrors.methodNotAllowed('the server does not allow this method on the requested resource');
    const namespace = request.scope.namespace;
    const account = await store.get(request.scope, request.name);
    const body = reviewBody(request.body, 'TokenRequest', 'authentication.k8s.io/v1');
    // a null field is an absent one, as Go decodes it into a nil pointer (kubectl create token sends
    // `expirationSeconds: null` and `boundObjectRef: null` unless asked for them)
    const spec = Object.fromEntries(
      Object.entries(body.spec ?? {}).filter(([, value]) => value !== null),
    ) as TokenRequestSpec;
    const errors = validate(body, request.name, namespace, spec);
    if (errors.length) throw invalidReview('TokenRequest', 'authentication.k8s.io', request.name, errors);
    if (!spec.audiences?.length) spec.audiences = [...options.apiAudiences];
    spec.expirationSeconds ??= 3600;
    const expirationSeconds = Math.min(spec.expirationSeconds, options.maxTokenExpirationSeconds ?? Infinity);
    let boundObject: { kind: 'Pod' | 'Secret'; name: string; uid: string } | undefined;
    const ref = spec.boundObjectRef;
    if (ref) {
      if (!options.boundObject)
        throw statusErrors.badRequest(`cannot bind a token to a ${ref.kind}: bound objects are not served`);
      const kind = ref.kind as 'Pod' | 'Secret';
      const target = await options.boundObject(kind, namespace, ref.name ?? '');
      const uid = target.metadata.uid ?? '';
      if (ref.uid && ref.uid !== uid) {
        throw statusErrors.conflict(
          { group: '', resource: kind === 'Pod' ? 'pods' : 'secrets' },
          ref.name ?? '',
          `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
        );
      }
      boundObject = { kind, name: ref.name ?? '', uid };
    }
    const now = options.now?.() ?? new Date();
    const signed = await signServiceAccountToken(options.signingKey, options.issuer, {
      namespace,
      name: request.name,
      uid: account.metadata.uid ?? '',
      audiences: spec.audiences,
      expirationSeconds,
      ...(boundObject ? { boundObject } : {}),
      now,
    });
    const object = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name: request.name, namespace, creationTimestamp: nowTime(now) },
      spec: { ...spec, expirationSeconds },
      status: { token: signed.token, expirationTimestamp: nowTime(signed.expirationTimestamp) },
    };
    return { code: 201, object };
  };
}
