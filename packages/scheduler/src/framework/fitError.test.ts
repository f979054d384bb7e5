import { fitErrorMessage } from './fitError';
import { Status } from './status';

describe('fitErrorMessage', () => {
  it('counts each reason per node and sorts the entries', () => {
    const statuses = new Map<string, Status>([
      ['a', Status.unschedulable('Insufficient cpu')],
      ['b', Status.unschedulable('Insufficient cpu', 'Insufficient memory')],
      ['c', Status.unresolvable("node(s) didn't match node selector")],
      ['d', Status.unschedulable('Insufficient cpu')],
    ]);
    expect(fitErrorMessage(4, statuses)).toBe(
      "0/4 nodes are available: 1 Insufficient memory, 1 node(s) didn't match node selector, 3 Insufficient cpu.",
    );
  });

  it('matches Kubernetes for three full nodes', () => {
    const full = Status.unschedulable('Insufficient cpu');
    expect(
      fitErrorMessage(
        3,
        new Map([
          ['a', full],
          ['b', full],
          ['c', full],
        ]),
      ),
    ).toBe('0/3 nodes are available: 3 Insufficient cpu.');
  });
});
