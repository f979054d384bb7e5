import { csiUniqueVolumeName, mergeResizeConditions, parseCSIUniqueVolumeName } from './volume-util';

test('the unique name of a CSI volume', () => {
  expect(csiUniqueVolumeName('disk.example.com', 'vol-1')).toBe('kubernetes.io/csi/disk.example.com^vol-1');
});

test('resize conditions are merged as MergeResizeConditionOnPVC', () => {
  const at = (t: string) => `2026-01-01T00:00:0${t}Z`;
  const current = [
    { type: 'Custom', status: 'True', lastTransitionTime: at('1') },
    { type: 'FileSystemResizePending', status: 'True', lastTransitionTime: at('1') },
  ];
  expect(
    mergeResizeConditions(current, [
      { type: 'FileSystemResizePending', status: 'True', lastTransitionTime: at('2') },
    ]),
  ).toEqual(current);
  expect(
    mergeResizeConditions(current, [{ type: 'Resizing', status: 'True', lastTransitionTime: at('2') }]),
  ).toEqual([current[0], { type: 'Resizing', status: 'True', lastTransitionTime: at('2') }]);
  expect(mergeResizeConditions(current, [])).toEqual([current[0]]);
});

describe('CSI unique volume names', () => {
  it('reads a CSI unique volume name back; other plugins’ names are not CSI', () => {
    const name = csiUniqueVolumeName('disk.example.com', 'vol^1');
    expect(name).toBe('kubernetes.io/csi/disk.example.com^vol^1');
    expect(parseCSIUniqueVolumeName(name)).toEqual({ driver: 'disk.example.com', volumeHandle: 'vol^1' });
    expect(parseCSIUniqueVolumeName('kubernetes.io/aws-ebs/vol-1')).toBeUndefined();
    expect(parseCSIUniqueVolumeName('kubernetes.io/csi/no-separator')).toBeUndefined();
  });
});
