import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigMapKind, EndpointsKind, LeaseKind } from '@orch/api';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import {
  buildConfigFromFlags,
  Clientset,
  LEADER_ANNOTATION,
  parseRecord,
  type ResourceLockType,
} from '@orch/client';

const root = path.join(__dirname, '../..');
const fixture = path.join(__dirname, 'fixtures/leader-candidate.js');
const LEASE_MS = 2000;
const RENEW_MS = 1500;
const RETRY_MS = 300;

let api: TestAPIServer;
let clientset: Clientset;

beforeAll(async () => {
  // Build the client the candidates load. tsc emits even when a referenced project reports type
  // errors elsewhere, so the outcome is checked on the emitted file rather than the exit status.
  spawnSync('npx', ['tsc', '-b', 'packages/client/tsconfig.json'], { cwd: root, stdio: 'ignore' });
  const built = path.join(root, 'packages/client/dist/leaderelection/LeaderElector.js');
  const source = path.join(root, 'packages/client/src/leaderelection/LeaderElector.ts');
  expect(fs.statSync(built).mtimeMs).toBeGreaterThanOrEqual(fs.statSync(source).mtimeMs);
  api = await startTestAPIServer({ admissionPlugins: [] });
  clientset = Clientset.forConfig({
    ...buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config,
    qps: -1,
  });
}, 120_000);

afterAll(async () => {
  clientset?.rest.close();
  await api?.close();
});

interface Candidate {
  proc: ChildProcess;
  identity: string;
  lines: { what: string; t: number; id: string }[];
  exited: Promise<number | null>;
}

function startCandidate(lockType: ResourceLockType, name: string): Promise<Candidate> {
  const proc = spawn(process.execPath, [fixture, api.kubeconfig, lockType, name], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const c: Candidate = {
    proc,
    identity: '',
    lines: [],
    exited: new Promise((resolve) => proc.on('exit', (code) => resolve(code))),
  };
  let buf = '';
  return new Promise((resolve, reject) => {
    proc.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const [what, t, id] = buf.slice(0, i).split(' ');
        buf = buf.slice(i + 1);
        c.lines.push({ what: what!, t: Number(t), id: id! });
        if (what === 'READY') {
          c.identity = id!;
          resolve(c);
        }
      }
    });
    proc.on('exit', () => reject(new Error('candidate exited before starting')));
  });
}

/** Leadership intervals of all candidates, [start, end]; a killed leader's interval ends at its kill time. */
function intervals(cands: Candidate[], killedAt: Map<Candidate, number>): [number, number, string][] {
  const out: [number, number, string][] = [];
  for (const c of cands) {
    let start: number | undefined;
    for (const l of c.lines) {
      if (l.what === 'LEADING') start = l.t;
      if (l.what === 'STOPPED' && start !== undefined) {
        out.push([start, l.t, c.identity]);
        start = undefined;
      }
    }
    if (start !== undefined) out.push([start, killedAt.get(c) ?? Infinity, c.identity]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

function leading(c: Candidate): boolean {
  const last = [...c.lines].reverse().find((l) => l.what === 'LEADING' || l.what === 'STOPPED');
  return last?.what === 'LEADING';
}

const lockTypes: ResourceLockType[] = [
  'leases',
  'endpoints',
  'configmaps',
  'endpointsleases',
  'configmapsleases',
];

describe.each(lockTypes)('leader election with the %s lock', (lockType) => {
  it('keeps exactly one leader among 3 processes and fails over after kill -9 within lease + retry', async () => {
    const name = `le-${lockType}`;
    const cands = await Promise.all([0, 1, 2].map(() => startCandidate(lockType, name)));
    const killedAt = new Map<Candidate, number>();
    try {
      const first = await eventually(() => cands.find(leading), 'a first leader', 10_000);
      // Let the others campaign for a while: nobody else may lead.
      await new Promise((r) => setTimeout(r, 1500));
      expect(cands.filter(leading)).toEqual([first]);

      first.proc.kill('SIGKILL');
      const killed = Date.now();
      killedAt.set(first, killed);
      await first.exited;
      const second = await eventually(
        () => cands.find((c) => c !== first && leading(c)),
        'a second leader',
        10_000,
      );
      const took = second.lines.find((l) => l.what === 'LEADING')!.t - killed;
      expect(took).toBeLessThanOrEqual(LEASE_MS + RETRY_MS * (1 + 1.2) + 500);
      // A leader acts only while its last renewal is younger than the renew deadline, so nobody may take
      // over earlier than a lease duration after a renewal at most that old at the kill.
      expect(took).toBeGreaterThanOrEqual(LEASE_MS - RENEW_MS - 200);

      // The lock object names the new leader.
      if (lockType === 'leases' || lockType.endsWith('leases')) {
        const lease = await clientset.for(LeaseKind).get(name, { namespace: 'orch-system' });
        expect(lease.spec?.holderIdentity).toBe(second.identity);
        expect(lease.spec?.leaseDurationSeconds).toBe(2);
        expect(lease.spec?.leaseTransitions).toBe(1);
      }
      if (lockType !== 'leases') {
        const kind = lockType.startsWith('endpoints') ? EndpointsKind : ConfigMapKind;
        const obj = await clientset.for(kind).get(name, { namespace: 'orch-system' });
        const record = parseRecord(obj.metadata!.annotations![LEADER_ANNOTATION]!);
        expect(record).toMatchObject({
          holderIdentity: second.identity,
          leaseDurationSeconds: 2,
          leaderTransitions: 1,
        });
      }

      // Graceful stop releases: the third takes over at once instead of waiting a lease duration.
      const third = cands.find((c) => c !== first && c !== second)!;
      second.proc.kill('SIGTERM');
      const stopped = Date.now();
      expect(await second.exited).toBe(0);
      await eventually(() => (leading(third) ? third : undefined), 'the third leader', 10_000);
      expect(third.lines.find((l) => l.what === 'LEADING')!.t - stopped).toBeLessThan(LEASE_MS);

      // No two leadership intervals overlap.
      const iv = intervals(cands, killedAt);
      expect(iv.map((i) => i[2])).toEqual([first.identity, second.identity, third.identity]);
      for (let i = 1; i < iv.length; i++) {
        expect(iv[i]![0]).toBeGreaterThanOrEqual(iv[i - 1]![1]);
      }
    } finally {
      for (const c of cands) c.proc.kill('SIGKILL');
      await Promise.all(cands.map((c) => c.exited));
    }
  }, 40_000);
});
