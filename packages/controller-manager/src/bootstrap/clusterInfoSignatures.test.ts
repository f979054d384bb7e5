import { detachedSignature } from './jws';
import { signedClusterInfo, type ConfigMap } from './clusterInfoSignatures';

const KUBECONFIG = 'apiVersion: v1\nkind: Config\nclusters: []\n';
const A = { id: 'aaaaaa', secret: '0123456789abcdef' };
const B = { id: 'bbbbbb', secret: 'fedcba9876543210' };
const sig = (t: { id: string; secret: string }, content = KUBECONFIG): string =>
  detachedSignature(content, t.id, t.secret);

function clusterInfo(data: Record<string, string> | undefined): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cluster-info', namespace: 'orch-public', resourceVersion: '7' },
    ...(data ? { data } : {}),
  };
}

test('each token adds its signature; the rest of the ConfigMap is kept', () => {
  const signed = signedClusterInfo(clusterInfo({ kubeconfig: KUBECONFIG, other: 'x' }), [A, B]);
  expect(signed?.metadata).toEqual({ name: 'cluster-info', namespace: 'orch-public', resourceVersion: '7' });
  expect(signed?.data).toEqual({
    kubeconfig: KUBECONFIG,
    other: 'x',
    'jws-kubeconfig-aaaaaa': sig(A),
    'jws-kubeconfig-bbbbbb': sig(B),
  });
});

test('nothing to write when the signatures are already the ones of the tokens', () => {
  const data = { kubeconfig: KUBECONFIG, 'jws-kubeconfig-aaaaaa': sig(A) };
  expect(signedClusterInfo(clusterInfo(data), [A])).toBeUndefined();
  expect(signedClusterInfo(clusterInfo({ kubeconfig: KUBECONFIG }), [])).toBeUndefined();
});

test('signatures of tokens no longer given are removed', () => {
  const data = { kubeconfig: KUBECONFIG, 'jws-kubeconfig-aaaaaa': sig(A), 'jws-kubeconfig-bbbbbb': sig(B) };
  expect(signedClusterInfo(clusterInfo(data), [A])?.data).toEqual({
    kubeconfig: KUBECONFIG,
    'jws-kubeconfig-aaaaaa': sig(A),
  });
  expect(signedClusterInfo(clusterInfo(data), [])?.data).toEqual({ kubeconfig: KUBECONFIG });
});

test('a wrong or outdated signature is replaced', () => {
  const outdated = { kubeconfig: KUBECONFIG, 'jws-kubeconfig-aaaaaa': sig(A, 'old kubeconfig') };
  expect(signedClusterInfo(clusterInfo(outdated), [A])?.data?.['jws-kubeconfig-aaaaaa']).toBe(sig(A));
  const otherSecret = { kubeconfig: KUBECONFIG, 'jws-kubeconfig-aaaaaa': sig({ ...A, secret: 'x' }) };
  expect(signedClusterInfo(clusterInfo(otherSecret), [A])?.data?.['jws-kubeconfig-aaaaaa']).toBe(sig(A));
});

test('a ConfigMap without kubeconfig is left alone', () => {
  expect(signedClusterInfo(clusterInfo({ 'jws-kubeconfig-aaaaaa': 'x' }), [A])).toBeUndefined();
  expect(signedClusterInfo(clusterInfo(undefined), [A])).toBeUndefined();
});

test('a token id given twice signs with its first secret', () => {
  const signed = signedClusterInfo(clusterInfo({ kubeconfig: KUBECONFIG }), [A, { ...A, secret: 'other' }]);
  expect(signed?.data?.['jws-kubeconfig-aaaaaa']).toBe(sig(A));
});
