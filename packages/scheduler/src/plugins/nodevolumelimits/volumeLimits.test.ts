import { NodeInfo } from '../../framework/nodeInfo';
import { makeNode } from '../../testing/fixtures';
import { csiAttachLimitKey, nodeVolumeLimits } from './volumeLimits';

describe('csiAttachLimitKey', () => {
  it('prefixes a short driver name', () => {
    expect(csiAttachLimitKey('ebs.csi.aws.com')).toBe('attachable-volumes-csi-ebs.csi.aws.com');
  });

  it('shortens a long driver name with its hash', () => {
    const driver = 'a-very-long-csi-driver-name.storage.example.com';
    const key = csiAttachLimitKey(driver);
    expect(key).toMatch(/^attachable-volumes-csi-a-very-long-csi-driver-[0-9a-f]{16}$/);
    expect(key.length).toBeLessThan(63);
    expect(csiAttachLimitKey(`${driver}x`)).not.toBe(key);
  });

  it('shortens a name that reaches 63 characters exactly', () => {
    const driver = 'd'.repeat(63 - 'attachable-volumes-csi-'.length);
    expect(csiAttachLimitKey(driver)).not.toBe(`attachable-volumes-csi-${driver}`);
    expect(csiAttachLimitKey(driver.slice(1))).toBe(`attachable-volumes-csi-${driver.slice(1)}`);
  });
});

describe('nodeVolumeLimits', () => {
  it('reads the attachable-volumes-* allocatable resources only', () => {
    const node = makeNode('n', {
      allocatable: {
        cpu: '4',
        pods: '110',
        'attachable-volumes-aws-ebs': '25',
        'attachable-volumes-csi-x': '3',
        'example.com/gpu': '2',
      },
    });
    expect(nodeVolumeLimits(new NodeInfo(node))).toEqual(
      new Map([
        ['attachable-volumes-aws-ebs', 25],
        ['attachable-volumes-csi-x', 3],
      ]),
    );
  });
});
