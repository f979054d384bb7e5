import { getAtJSONPath, jsonPathResults } from './json-path';

const cert = {
  metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: { replicas: 3, dnsNames: ['a.example', 'b.example'] },
  status: {
    conditions: [
      { type: 'Issuing', status: 'False', observedGeneration: 1 },
      { type: 'Ready', status: 'True', reason: 'Ready', observedGeneration: 2 },
    ],
  },
};

describe('JSON paths of printer columns', () => {
  it.each([
    ['.spec.replicas', 3],
    ['.spec.dnsNames[1]', 'b.example'],
    ['.spec.dnsNames[-1]', 'b.example'],
    [".metadata.labels['app.kubernetes.io/name']", 'web'],
    ['.metadata.labels["app.kubernetes.io/name"]', 'web'],
    // the READY column of most operators' resources
    ['.status.conditions[?(@.type=="Ready")].status', 'True'],
    [".status.conditions[?(@.type=='Ready')].reason", 'Ready'],
    ['.status.conditions[?(@.type != "Ready")].type', 'Issuing'],
    ['.status.conditions[?(@.observedGeneration>1)].type', 'Ready'],
    ['.status.conditions[?(@.reason)].type', 'Ready'],
    ['.status.conditions[*].type', 'Issuing'],
    ['.spec.missing', undefined],
    ['.status.conditions[?(@.type=="Absent")].status', undefined],
    ['.spec.replicas.deeper', undefined],
  ])('%s', (path, value) => {
    expect(getAtJSONPath(cert, path)).toEqual(value);
  });

  it('reaches every match of a wildcard or filter, in order', () => {
    expect(jsonPathResults(cert, '.status.conditions[*].type')).toEqual(['Issuing', 'Ready']);
    expect(jsonPathResults(cert, '.spec.dnsNames[*]')).toEqual(['a.example', 'b.example']);
    expect(jsonPathResults(cert, '.status.conditions[?(@.status=="Unknown")]')).toEqual([]);
  });
});
