import {
  CLOUD_CONTROLLER_MANAGER_CONTROLLERS,
  CLOUD_CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  CONTROLLER_MANAGER_CONTROLLERS,
  CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  resolveControllers,
} from './controllers';

const cm = (list: string[]): string[] =>
  resolveControllers(list, CONTROLLER_MANAGER_CONTROLLERS, CONTROLLER_MANAGER_DISABLED_BY_DEFAULT);

describe('controller lists', () => {
  it("knows doc 3's 36 controller-manager controllers and 4 cloud ones", () => {
    expect(CONTROLLER_MANAGER_CONTROLLERS).toHaveLength(36);
    expect(new Set(CONTROLLER_MANAGER_CONTROLLERS).size).toBe(36);
    expect(CONTROLLER_MANAGER_DISABLED_BY_DEFAULT).toEqual([
      'bootstrapsigner',
      'endpointslice',
      'tokencleaner',
    ]);
    expect(CLOUD_CONTROLLER_MANAGER_CONTROLLERS).toEqual([
      'cloud-node',
      'cloud-node-lifecycle',
      'route',
      'service',
    ]);
    expect(CLOUD_CONTROLLER_MANAGER_DISABLED_BY_DEFAULT).toEqual([]);
  });
});

describe('resolveControllers', () => {
  it('* enables every on-by-default controller', () => {
    const enabled = cm(['*']);
    expect(enabled).toHaveLength(33);
    expect(enabled).not.toContain('bootstrapsigner');
    expect(enabled).not.toContain('endpointslice');
    expect(enabled).not.toContain('tokencleaner');
    expect(enabled).toContain('garbagecollector');
  });

  it('name enables and -name disables', () => {
    const enabled = cm(['*', 'tokencleaner', '-ttl']);
    expect(enabled).toContain('tokencleaner');
    expect(enabled).not.toContain('ttl');
    expect(cm(['deployment', 'replicaset'])).toEqual(['deployment', 'replicaset']);
    expect(cm([])).toEqual([]);
  });

  it('an unknown name is an error naming it', () => {
    expect(() => cm(['*', '-bogus'])).toThrow(
      '--controllers: "bogus" is not in the list of known controllers',
    );
  });

  it('resolves the cloud controller manager list', () => {
    expect(
      resolveControllers(
        ['*', '-route'],
        CLOUD_CONTROLLER_MANAGER_CONTROLLERS,
        CLOUD_CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
      ),
    ).toEqual(['cloud-node', 'cloud-node-lifecycle', 'service']);
  });
});
