import { claim, volume } from '../../testing/volumes';
import { boundClaimAction, unboundClaimAction, volumeAction } from './binderActions';

const input = (volumes = [volume('fit', '1Gi')], delayBinding = false, unscheduledPods: string[] = []) => ({
  volumes,
  delayBinding,
  unscheduledPods,
});

describe('a claim not bound yet', () => {
  test('is bound to the volume that matches', () => {
    const action = unboundClaimAction(claim('c', '1Gi'), input());
    expect(action).toMatchObject({ kind: 'bind', volume: { metadata: { name: 'fit' } } });
  });

  test('without a class and a volume, stays Pending saying so', () => {
    expect(unboundClaimAction(claim('c', '5Gi'), input())).toEqual({
      kind: 'pending',
      event: {
        type: 'Normal',
        reason: 'FailedBinding',
        message: 'no persistent volumes available for this claim and no storage class is set',
      },
    });
  });

  test('of a class without a volume, is provisioned', () => {
    expect(unboundClaimAction(claim('c', '5Gi', { storageClassName: 'fast' }), input())).toEqual({
      kind: 'provision',
    });
  });

  test('of a WaitForFirstConsumer class waits for its consumer, then is provisioned', () => {
    const c = claim('c', '1Gi', { storageClassName: 'local' });
    const available = [volume('fit', '1Gi', { storageClassName: 'local' })];
    expect(unboundClaimAction(c, input(available, true))).toEqual({
      kind: 'pending',
      event: {
        type: 'Normal',
        reason: 'WaitForFirstConsumer',
        message: 'waiting for first consumer to be created before binding',
      },
    });
    expect(unboundClaimAction(c, input(available, true, ['web-0']))).toMatchObject({
      event: { reason: 'WaitForPodScheduled', message: 'waiting for pod web-0 to be scheduled' },
    });
    expect(unboundClaimAction(c, input(available, true, ['a', 'b']))).toMatchObject({
      event: { reason: 'WaitForPodScheduled', message: 'waiting for pods a,b to be scheduled' },
    });
    const selected = claim(
      'c',
      '1Gi',
      { storageClassName: 'local' },
      { 'volume.kubernetes.io/selected-node': 'n1' },
    );
    expect(unboundClaimAction(selected, input(available, true))).toEqual({ kind: 'provision' });
  });

  test('naming a volume: bound when it satisfies the claim, otherwise Pending with the reason', () => {
    const c = claim('c', '1Gi', { volumeName: 'wanted' });
    expect(unboundClaimAction(c, input([volume('wanted', '1Gi', {}, { phase: 'Pending' })]))).toMatchObject({
      kind: 'bind',
      volume: { metadata: { name: 'wanted' } },
    });
    expect(unboundClaimAction(c, input([volume('other', '1Gi')]))).toEqual({ kind: 'pending' });
    expect(unboundClaimAction(c, input([volume('wanted', '500Mi')]))).toEqual({
      kind: 'pending',
      event: {
        type: 'Warning',
        reason: 'VolumeMismatch',
        message: 'Cannot bind to requested volume "wanted": requested PV is too small',
      },
    });
  });

  test('naming a volume pre-bound to it, or bound to another claim', () => {
    const c = claim('c', '1Gi', { volumeName: 'wanted' });
    const mine = volume('wanted', '1Gi', { claimRef: { namespace: 'ns', name: 'c' } });
    expect(unboundClaimAction(c, input([mine]))).toMatchObject({ kind: 'bind' });
    const theirs = volume('wanted', '1Gi', { claimRef: { namespace: 'ns', name: 'd', uid: 'uid-d' } });
    const event = {
      type: 'Warning',
      reason: 'FailedBinding',
      message: 'volume "wanted" already bound to a different claim.',
    };
    expect(unboundClaimAction(c, input([theirs]))).toEqual({ kind: 'pending', event });
    const byController = claim(
      'c',
      '1Gi',
      { volumeName: 'wanted' },
      { 'pv.kubernetes.io/bound-by-controller': 'yes' },
    );
    expect(unboundClaimAction(byController, input([theirs]))).toEqual({
      kind: 'misbound',
      event,
      error: 'invalid binding of claim "ns/c" to volume "wanted": volume already claimed by "ns/d"',
    });
  });
});

describe('a claim bound before', () => {
  test('stays bound to its volume, and is Lost without it or when another claim has it', () => {
    const c = claim('c', '1Gi', { volumeName: 'v' });
    const v = volume('v', '1Gi', { claimRef: { namespace: 'ns', name: 'c', uid: 'uid-c' } });
    expect(boundClaimAction(c, v)).toEqual({ kind: 'bind', volume: v });
    expect(boundClaimAction(c, volume('v', '1Gi'))).toMatchObject({ kind: 'bind' });
    expect(boundClaimAction(c, undefined)).toEqual({
      kind: 'lost',
      event: {
        type: 'Warning',
        reason: 'ClaimLost',
        message: 'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
      },
    });
    expect(boundClaimAction(claim('c', '1Gi'), v)).toMatchObject({
      event: { message: 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!' },
    });
    const elsewhere = volume('v', '1Gi', { claimRef: { namespace: 'ns', name: 'c', uid: 'other' } });
    expect(boundClaimAction(c, elsewhere)).toMatchObject({
      kind: 'lost',
      event: {
        reason: 'ClaimMisbound',
        message: 'Two claims are bound to the same volume, this one is bound incorrectly',
      },
    });
  });
});

describe('a volume', () => {
  const ref = { namespace: 'ns', name: 'c', uid: 'uid-c' };

  test('unclaimed or only pre-bound is Available', () => {
    expect(volumeAction(volume('v', '1Gi'), undefined)).toEqual({ kind: 'phase', phase: 'Available' });
    expect(volumeAction(volume('v', '1Gi', { claimRef: { namespace: 'ns', name: 'c' } }), undefined)).toEqual(
      {
        kind: 'phase',
        phase: 'Available',
      },
    );
  });

  test('bound to a claim bound to it is Bound; one whose claim is gone (or replaced) is released', () => {
    const v = volume('v', '1Gi', { claimRef: ref });
    expect(volumeAction(v, claim('c', '1Gi', { volumeName: 'v' }))).toEqual({
      kind: 'phase',
      phase: 'Bound',
    });
    expect(volumeAction(v, undefined)).toEqual({ kind: 'release' });
    const replaced = claim('c', '1Gi', { volumeName: 'v' });
    replaced.metadata!.uid = 'new';
    expect(volumeAction(v, replaced)).toEqual({ kind: 'release' });
  });

  test('whose claim has not finished binding has the claim synced, unless their volumeModes differ', () => {
    const v = volume('v', '1Gi', { claimRef: ref });
    expect(volumeAction(v, claim('c', '1Gi'))).toMatchObject({ kind: 'syncClaim' });
    expect(volumeAction(v, claim('c', '1Gi', { volumeMode: 'Block' }))).toMatchObject({
      kind: 'modeMismatch',
      claimEvent: {
        reason: 'VolumeMismatch',
        message:
          'Cannot bind PersistentVolume "v" to requested PersistentVolumeClaim due to incompatible volumeMode.',
      },
    });
  });

  test('whose claim is bound elsewhere is unbound, or released when provisioned for it with Delete', () => {
    const c = claim('c', '1Gi', { volumeName: 'other' });
    expect(volumeAction(volume('v', '1Gi', { claimRef: ref }), c)).toEqual({ kind: 'unbind' });
    const provisioned = volume(
      'v',
      '1Gi',
      { claimRef: ref, persistentVolumeReclaimPolicy: 'Delete' },
      { annotations: { 'pv.kubernetes.io/provisioned-by': 'kubernetes.io/host-path' } },
    );
    expect(volumeAction(provisioned, c)).toEqual({ kind: 'release' });
  });
});
