import {
  DESCRIPTION_ANNOTATION,
  newRootCAConfigMap,
  restoredRootCAConfigMap,
  ROOT_CA_DESCRIPTION,
  type ConfigMap,
} from './rootCAConfigMap';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('the kube-root-ca.crt ConfigMap', () => {
  test('is named kube-root-ca.crt, holds ca.crt and the description Kubernetes writes', () => {
    expect(newRootCAConfigMap('team-a', CA)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'kube-root-ca.crt',
        namespace: 'team-a',
        annotations: {
          'kubernetes.io/description':
            'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
        },
      },
      data: { 'ca.crt': CA },
    });
  });

  test('one as published is left alone', () => {
    expect(restoredRootCAConfigMap(newRootCAConfigMap('ns', CA), CA)).toBeUndefined();
  });

  test('any non-empty description is kept; other metadata and binaryData are left alone', () => {
    const cm: ConfigMap = {
      ...newRootCAConfigMap('ns', CA),
      binaryData: { blob: 'AAE=' },
    };
    cm.metadata!.annotations = { [DESCRIPTION_ANNOTATION]: 'mine', other: 'x' };
    cm.metadata!.labels = { team: 'a' };
    expect(restoredRootCAConfigMap(cm, CA)).toBeUndefined();
  });

  test('changed data is put back, extra keys removed, metadata kept', () => {
    const cm: ConfigMap = {
      ...newRootCAConfigMap('ns', CA),
      data: { 'ca.crt': 'tampered', extra: 'x' },
    };
    cm.metadata = { ...cm.metadata, resourceVersion: '42', labels: { team: 'a' } };
    const restored = restoredRootCAConfigMap(cm, CA);
    expect(restored?.data).toEqual({ 'ca.crt': CA });
    expect(restored?.metadata).toMatchObject({ resourceVersion: '42', labels: { team: 'a' } });
    expect(restoredRootCAConfigMap({ ...cm, data: { 'ca.crt': CA, extra: 'x' } }, CA)?.data).toEqual({
      'ca.crt': CA,
    });
    expect(restoredRootCAConfigMap({ ...cm, data: undefined }, CA)?.data).toEqual({ 'ca.crt': CA });
  });

  test('a missing or emptied description is written again, beside the other annotations', () => {
    const cm = newRootCAConfigMap('ns', CA);
    cm.metadata!.annotations = { other: 'x', [DESCRIPTION_ANNOTATION]: '' };
    expect(restoredRootCAConfigMap(cm, CA)?.metadata?.annotations).toEqual({
      other: 'x',
      [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION,
    });
    cm.metadata!.annotations = undefined;
    expect(restoredRootCAConfigMap(cm, CA)?.metadata?.annotations).toEqual({
      [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION,
    });
  });

  test('the cached object is not changed', () => {
    const cm = Object.freeze({ ...newRootCAConfigMap('ns', CA), data: Object.freeze({ 'ca.crt': 'old' }) });
    expect(restoredRootCAConfigMap(cm, CA)?.data).toEqual({ 'ca.crt': CA });
    expect(cm.data).toEqual({ 'ca.crt': 'old' });
  });
});
