import { parseLocalCloudConfig } from './localCloudConfig';

describe('parseLocalCloudConfig', () => {
  test('an empty config has the documented defaults', () => {
    expect(parseLocalCloudConfig('')).toEqual({
      zone: 'local',
      region: 'local',
      unlistedInstances: 'running',
      loadBalancerPool: '127.0.1.0/24',
      routesFile: '',
      instances: [],
    });
  });

  test('instances take defaults from the top level; YAML and JSON both parse', () => {
    const yaml = parseLocalCloudConfig(
      [
        'zone: zone-a',
        'region: region-1',
        'instances:',
        '  - name: n1',
        '    state: shutdown',
        '    addresses: [{type: InternalIP, address: 127.0.0.1}]',
        '  - {name: n2, zone: zone-b, instanceType: big, providerID: "local://other"}',
      ].join('\n'),
    );
    expect(yaml.instances).toEqual([
      {
        name: 'n1',
        providerID: 'local://n1',
        instanceType: 'local',
        zone: 'zone-a',
        region: 'region-1',
        state: 'shutdown',
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      },
      {
        name: 'n2',
        providerID: 'local://other',
        instanceType: 'big',
        zone: 'zone-b',
        region: 'region-1',
        state: 'running',
        addresses: [],
      },
    ]);
    const json = parseLocalCloudConfig('{"unlistedInstances": "absent", "instances": [{"name": "x"}]}');
    expect(json.unlistedInstances).toBe('absent');
    expect(json.instances[0]?.providerID).toBe('local://x');
  });

  test('errors name the field', () => {
    expect(() => parseLocalCloudConfig('zones: a')).toThrow('zones: unknown field');
    expect(() => parseLocalCloudConfig('instances: [{state: running}]')).toThrow(
      'instances[0].name: required',
    );
    expect(() => parseLocalCloudConfig('instances: [{name: a, state: paused}]')).toThrow(
      'instances[0].state: must be running or shutdown',
    );
    expect(() => parseLocalCloudConfig('instances: [{name: a}, {name: a}]')).toThrow(
      'instances[1].name: duplicate instance "a"',
    );
    expect(() =>
      parseLocalCloudConfig('instances: [{name: a, addresses: [{type: Public, address: 1.2.3.4}]}]'),
    ).toThrow('instances[0].addresses[0].type: must be one of');
    expect(() => parseLocalCloudConfig('unlistedInstances: maybe')).toThrow(
      'unlistedInstances: must be running or absent',
    );
    expect(() => parseLocalCloudConfig('- a')).toThrow('must be a mapping');
    expect(() => parseLocalCloudConfig('loadBalancerPool: fd00::/64')).toThrow(
      'loadBalancerPool: must be an IPv4 CIDR, got "fd00::/64"',
    );
  });
});
