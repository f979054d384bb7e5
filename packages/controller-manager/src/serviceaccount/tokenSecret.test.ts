import type { Secret, ServiceAccount } from '@orch/api';
import { isServiceAccountToken, needsUpdate, populatedTokenSecret, tokenSecretNeeds } from './tokenSecret';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

function secret(annotations: Record<string, string>, data?: Record<string, string>): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'ci-token', namespace: 'team-a', annotations },
    type: 'kubernetes.io/service-account-token',
    ...(data ? { data } : {}),
  } as Secret;
}

const sa: ServiceAccount = {
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name: 'ci', namespace: 'team-a', uid: 'u1' },
};

describe('token secrets', () => {
  test('belong to the service account they name, with its UID when they carry one', () => {
    const named = secret({ 'kubernetes.io/service-account.name': 'ci' });
    expect(isServiceAccountToken(named, { name: 'ci', uid: 'u1' })).toBe(true);
    expect(isServiceAccountToken(named, { name: 'other' })).toBe(false);
    const withUID = secret({
      'kubernetes.io/service-account.name': 'ci',
      'kubernetes.io/service-account.uid': 'u0',
    });
    expect(isServiceAccountToken(withUID, { name: 'ci', uid: 'u1' })).toBe(false);
    expect(isServiceAccountToken(withUID, { name: 'ci', uid: 'u0' })).toBe(true);
    expect(isServiceAccountToken(withUID, { name: 'ci' })).toBe(true);
    expect(isServiceAccountToken({ ...named, type: 'Opaque' }, { name: 'ci' })).toBe(false);
  });

  test('need a token, the namespace, and the CA when there is one', () => {
    const empty = secret({ 'kubernetes.io/service-account.name': 'ci' });
    expect(tokenSecretNeeds(empty, 'CA')).toEqual({ ca: true, token: true, namespace: true });
    expect(tokenSecretNeeds(empty, '')).toEqual({ ca: false, token: true, namespace: true });
    const full = secret({}, { token: b64('t'), namespace: b64('team-a'), 'ca.crt': b64('CA') });
    expect(needsUpdate(tokenSecretNeeds(full, 'CA'))).toBe(false);
    expect(tokenSecretNeeds(full, 'NEW CA')).toEqual({ ca: true, token: false, namespace: false });
  });

  test('are filled with what they lack and annotated with the service account UID', () => {
    const partial = secret({ 'kubernetes.io/service-account.name': 'ci', keep: 'me' }, { token: b64('old') });
    const needs = tokenSecretNeeds(partial, 'CA');
    const filled = populatedTokenSecret(partial, sa, needs, { rootCA: 'CA', token: 'new' });
    expect(filled.data).toEqual({ token: b64('old'), namespace: b64('team-a'), 'ca.crt': b64('CA') });
    expect(filled.metadata?.annotations).toEqual({
      'kubernetes.io/service-account.name': 'ci',
      'kubernetes.io/service-account.uid': 'u1',
      keep: 'me',
    });
    const fresh = secret({ 'kubernetes.io/service-account.name': 'ci' });
    expect(
      populatedTokenSecret(fresh, sa, tokenSecretNeeds(fresh, ''), { rootCA: '', token: 'jwt' }).data,
    ).toEqual({
      token: b64('jwt'),
      namespace: b64('team-a'),
    });
  });
});
