import { columnDefinitions, toTable } from '../../table/table-convertor';
import { NodeMetricsKind, PodMetricsKind } from './index';

const now = new Date('2024-01-01T00:00:00Z');

describe('metrics.k8s.io tables', () => {
  it('print a quantity column per resource and the window, as the metrics server does', () => {
    for (const kind of [NodeMetricsKind, PodMetricsKind]) {
      expect(columnDefinitions(kind).map((c) => [c.name, c.type, c.format])).toEqual([
        ['Name', 'string', 'name'],
        ['cpu', 'string', 'quantity'],
        ['memory', 'string', 'quantity'],
        ['Window', 'string', 'duration'],
      ]);
    }
  });

  it("print a node's usage, 0 for a resource it does not report", () => {
    const node = { metadata: { name: 'n1' }, window: '15s', usage: { cpu: '250m' } };
    expect(toTable(NodeMetricsKind, [node], { now }).rows![0]!.cells).toEqual(['n1', '250m', '0', '15s']);
  });

  it("print the sum of a pod's container usage", () => {
    const pod = {
      metadata: { name: 'web', namespace: 'default' },
      window: '15s',
      containers: [
        { name: 'app', usage: { cpu: '100m', memory: '32Mi' } },
        { name: 'side', usage: { cpu: '50m' } },
      ],
    };
    expect(toTable(PodMetricsKind, [pod], { now }).rows![0]!.cells).toEqual(['web', '150m', '32Mi', '15s']);
    expect(toTable(PodMetricsKind, [{ metadata: { name: 'idle' } }], { now }).rows![0]!.cells).toEqual([
      'idle',
      '0',
      '0',
      '0s',
    ]);
  });
});
