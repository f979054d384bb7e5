import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RestClient, type EventRecorder } from '@orch/client';
import { makePod } from '../testing/fixtures';
import { RestSchedulerClient } from './restSchedulerClient';

interface Seen {
  method: string;
  url: string;
  contentType: string;
  body: unknown;
}

describe('RestSchedulerClient', () => {
  let server: Server;
  let rest: RestClient;
  const seen: Seen[] = [];
  const events: unknown[][] = [];
  const recorder: EventRecorder = {
    event: (...args) => events.push(args),
    annotatedEvent: () => undefined,
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          contentType: String(req.headers['content-type'] ?? ''),
          body: text ? JSON.parse(text) : undefined,
        });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    rest = new RestClient({ server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, qps: -1 });
  });

  afterAll(async () => {
    rest.close();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    seen.length = 0;
    events.length = 0;
  });

  const client = (): RestSchedulerClient =>
    new RestSchedulerClient(rest, { recorder, now: () => Date.UTC(2024, 0, 2, 3, 4, 5) });

  it('binds with a Binding to the node through pods/binding', async () => {
    await client().bind(makePod('web', { namespace: 'prod', uid: 'u-1' }), 'node-7');
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/api/v1/namespaces/prod/pods/web/binding',
        contentType: expect.stringContaining('application/json'),
        body: {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name: 'web', namespace: 'prod', uid: 'u-1' },
          target: { apiVersion: 'v1', kind: 'Node', name: 'node-7' },
        },
      },
    ]);
  });

  it('strategic-merge-patches the PodScheduled condition through pods/status', async () => {
    const condition = {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: '0/3 nodes are available: 3 Insufficient cpu.',
    };
    await client().updatePodCondition(makePod('web'), condition);
    expect(seen).toEqual([
      {
        method: 'PATCH',
        url: '/api/v1/namespaces/default/pods/web/status',
        contentType: 'application/strategic-merge-patch+json',
        body: {
          status: {
            conditions: [{ ...condition, lastProbeTime: null, lastTransitionTime: '2024-01-02T03:04:05Z' }],
          },
        },
      },
    ]);
  });

  it('writes nothing when the pod already has the same condition, and keeps the transition time otherwise', async () => {
    const pod = makePod('web');
    pod.status!.conditions = [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: 'old',
        lastTransitionTime: '2023-05-05T00:00:00Z',
      },
    ];
    await client().updatePodCondition(pod, {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: 'old',
    });
    expect(seen).toEqual([]);
    await client().updatePodCondition(pod, {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: 'new',
    });
    expect(
      (seen[0]!.body as { status: { conditions: { lastTransitionTime: string }[] } }).status.conditions[0]!
        .lastTransitionTime,
    ).toBe('2023-05-05T00:00:00Z');
  });

  it('records events through the recorder', () => {
    const pod = makePod('web');
    client().event(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'no');
    expect(events).toEqual([[pod, 'Warning', 'FailedScheduling', 'no']]);
  });
});
