import { isVolumeBoundToClaim, type PersistentVolume } from '@orch/api';
import { claim, volume } from '../../testing/volumes';
import { findBestMatchForClaim, volumeUnsatisfiedReason } from './volumeMatching';

const names = (v: PersistentVolume | undefined) => v?.metadata?.name;

describe('matching a claim to a volume', () => {
  test('the smallest Available volume that is large enough', () => {
    const vols = [
      volume('big', '10Gi'),
      volume('small', '500Mi'),
      volume('fit', '2Gi'),
      volume('mid', '5Gi'),
    ];
    expect(names(findBestMatchForClaim(claim('c', '1Gi'), vols, false))).toBe('fit');
    expect(names(findBestMatchForClaim(claim('c', '2Gi'), vols, false))).toBe('fit');
    expect(names(findBestMatchForClaim(claim('c', '2049Mi'), vols, false))).toBe('mid');
    expect(findBestMatchForClaim(claim('c', '11Gi'), vols, false)).toBeUndefined();
  });

  test('only volumes of the same class (none matches none)', () => {
    const vols = [volume('fast', '1Gi', { storageClassName: 'fast' }), volume('none', '2Gi')];
    expect(names(findBestMatchForClaim(claim('c', '1Gi'), vols, false))).toBe('none');
    expect(names(findBestMatchForClaim(claim('c', '1Gi', { storageClassName: 'fast' }), vols, false))).toBe(
      'fast',
    );
    expect(
      findBestMatchForClaim(claim('c', '1Gi', { storageClassName: 'slow' }), vols, false),
    ).toBeUndefined();
    // the beta annotation names the class too
    const annotated = claim('c', '1Gi', {}, { 'volume.beta.kubernetes.io/storage-class': 'fast' });
    expect(names(findBestMatchForClaim(annotated, vols, false))).toBe('fast');
  });

  test('access modes: every requested mode, from the volumes with the fewest modes', () => {
    const vols = [
      volume('rwo', '1Gi'),
      volume('rwx-rox', '1Gi', { accessModes: ['ReadWriteMany', 'ReadOnlyMany'] }),
      volume('all', '1Gi', { accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'] }),
    ];
    expect(names(findBestMatchForClaim(claim('c', '1Gi'), vols, false))).toBe('rwo');
    expect(
      names(findBestMatchForClaim(claim('c', '1Gi', { accessModes: ['ReadWriteMany'] }), vols, false)),
    ).toBe('rwx-rox');
    // a smaller volume with more modes loses to a bigger one closer to the request
    const sized = [
      volume('exact-big', '5Gi', { accessModes: ['ReadWriteMany'] }),
      volume('all-small', '1Gi', {
        accessModes: ['ReadWriteOnce', 'ReadWriteMany'],
      }),
    ];
    expect(
      names(findBestMatchForClaim(claim('c', '1Gi', { accessModes: ['ReadWriteMany'] }), sized, false)),
    ).toBe('exact-big');
    expect(
      findBestMatchForClaim(
        claim('c', '1Gi', { accessModes: ['ReadWriteOnce', 'ReadWriteMany'] }),
        [vols[0]!],
        false,
      ),
    ).toBeUndefined();
  });

  test('volumeMode, selector, phase and deletion filter volumes', () => {
    const vols = [
      volume('block', '1Gi', { volumeMode: 'Block' }),
      volume('released', '1Gi', {}, { phase: 'Released' }),
      volume('labelled', '3Gi', {}, { labels: { tier: 'gold' } }),
      volume('plain', '2Gi'),
    ];
    expect(names(findBestMatchForClaim(claim('c', '1Gi'), vols, false))).toBe('plain');
    expect(names(findBestMatchForClaim(claim('c', '1Gi', { volumeMode: 'Block' }), vols, false))).toBe(
      'block',
    );
    const selecting = claim('c', '1Gi', { selector: { matchLabels: { tier: 'gold' } } });
    expect(names(findBestMatchForClaim(selecting, vols, false))).toBe('labelled');
    const deleting = volume('deleting', '1Gi');
    deleting.metadata!.deletionTimestamp = '2024-01-01T00:00:00Z';
    expect(findBestMatchForClaim(claim('c', '1Gi'), [deleting], false)).toBeUndefined();
  });

  test('a volume pre-bound to the claim wins whatever its size order, phase or class', () => {
    const c = claim('c', '1Gi');
    const prebound = volume(
      'prebound',
      '10Gi',
      { claimRef: { namespace: 'ns', name: 'c' } },
      { phase: 'Pending' },
    );
    const other = volume('other', '1Gi', { claimRef: { namespace: 'ns', name: 'someone-else' } });
    expect(names(findBestMatchForClaim(c, [volume('fit', '1Gi'), prebound, other], false))).toBe('prebound');
    expect(names(findBestMatchForClaim(c, [other], false))).toBeUndefined();
    // a claimRef with another claim's UID (a claim of the same name deleted since) is not this claim's
    const stale = volume('stale', '1Gi', { claimRef: { namespace: 'ns', name: 'c', uid: 'old' } });
    expect(isVolumeBoundToClaim(stale, c)).toBe(false);
    expect(findBestMatchForClaim(c, [stale], false)).toBeUndefined();
  });

  test('with delayed binding only a pre-bound volume is taken', () => {
    const c = claim('c', '1Gi');
    expect(findBestMatchForClaim(c, [volume('fit', '1Gi')], true)).toBeUndefined();
    const prebound = volume('prebound', '1Gi', { claimRef: { namespace: 'ns', name: 'c', uid: 'uid-c' } });
    expect(names(findBestMatchForClaim(c, [volume('fit', '1Gi'), prebound], true))).toBe('prebound');
  });

  test('why a requested volume does not satisfy the claim', () => {
    const c = claim('c', '2Gi', { storageClassName: 'fast' });
    const ok = volume('v', '2Gi', { storageClassName: 'fast' });
    expect(volumeUnsatisfiedReason(ok, c)).toBeUndefined();
    expect(volumeUnsatisfiedReason(volume('v', '1Gi', { storageClassName: 'fast' }), c)).toBe(
      'requested PV is too small',
    );
    expect(volumeUnsatisfiedReason(volume('v', '2Gi'), c)).toBe('storageClassName does not match');
    expect(
      volumeUnsatisfiedReason(volume('v', '2Gi', { storageClassName: 'fast', volumeMode: 'Block' }), c),
    ).toBe('incompatible volumeMode');
    expect(
      volumeUnsatisfiedReason(
        volume('v', '2Gi', { storageClassName: 'fast', accessModes: ['ReadOnlyMany'] }),
        c,
      ),
    ).toBe('incompatible accessMode');
  });
});
