import type { Job, Pod } from '@orch/api';
import {
  completionIndexOf,
  countTerminatingPods,
  ensureJobConditionStatus,
  firstPendingIndexes,
  formatIndexes,
  isJobFinished,
  jobBackoffDelay,
  jobComplete,
  onlyReplaceFailedPods,
  pastActiveDeadline,
  exceedsBackoffLimit,
  matchPodFailurePolicy,
  pastBackoffLimitOnFailure,
  podGenerateNameWithIndex,
  redundantIndexedPods,
  setCompletionIndex,
  succeededIndexes,
  wantActive,
} from './jobLogic';

const job = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): Job =>
  ({ metadata: { name: 'j' }, spec, status }) as Job;

test('wanted active pods: parallelism capped by the remaining completions', () => {
  expect(wantActive(job({ completions: 3, parallelism: 2 }), 0, 0)).toBe(2);
  expect(wantActive(job({ completions: 3, parallelism: 2 }), 1, 2)).toBe(1);
  expect(wantActive(job({ completions: 3, parallelism: 2 }), 0, 3)).toBe(0);
  // Work queue jobs (no completions): stop adding once one succeeded.
  expect(wantActive(job({ parallelism: 4 }), 2, 0)).toBe(4);
  expect(wantActive(job({ parallelism: 4 }), 2, 1)).toBe(2);
});

test('completion: all completions and nothing active, or any success for work queues', () => {
  expect(jobComplete(job({ completions: 3 }), 0, 3)).toBe(true);
  expect(jobComplete(job({ completions: 3 }), 1, 3)).toBe(false);
  expect(jobComplete(job({}), 0, 1)).toBe(true);
  expect(jobComplete(job({}), 1, 1)).toBe(false);
});

test('retry backoff: 0, 10 s, 20 s, 40 s ... capped at 6 minutes', () => {
  expect([0, 1, 2, 3, 6, 7, 20].map(jobBackoffDelay)).toEqual([
    0, 10_000, 20_000, 40_000, 320_000, 360_000, 360_000,
  ]);
});

test('activeDeadlineSeconds counts from startTime', () => {
  const j = job({ activeDeadlineSeconds: 30 }, { startTime: '2024-01-01T00:00:00Z' });
  expect(pastActiveDeadline(j, Date.parse('2024-01-01T00:00:29Z'))).toBe(false);
  expect(pastActiveDeadline(j, Date.parse('2024-01-01T00:00:30Z'))).toBe(true);
  expect(pastActiveDeadline(job({}, { startTime: '2024-01-01T00:00:00Z' }), Date.now())).toBe(false);
});

test('failed pods beyond backoffLimit fail the job, on a new failure while not at full parallelism', () => {
  // backoffLimit 2: the third failed pod fails the job, the second does not
  expect(exceedsBackoffLimit(1, 2, 0, 1, 2)).toBe(false);
  expect(exceedsBackoffLimit(2, 3, 0, 1, 2)).toBe(true);
  expect(exceedsBackoffLimit(0, 1, 0, 1, 0)).toBe(true);
  // no new failure, or a replacement already running: an earlier sync's failure
  expect(exceedsBackoffLimit(3, 3, 0, 1, 2)).toBe(false);
  expect(exceedsBackoffLimit(2, 3, 1, 1, 2)).toBe(false);
  // with parallelism 3, two pods still running
  expect(exceedsBackoffLimit(6, 7, 2, 3, 6)).toBe(true);
});

test('pod failure policy: the first rule a failed pod matches, with the message that fails the job', () => {
  const policy = job({
    podFailurePolicy: {
      rules: [
        { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1, 2] } },
      ],
    },
  });
  const failedPod = (exitCode: number, conditions: { type: string; status: string }[] = []): Pod =>
    ({
      metadata: { name: 'p1', namespace: 'ns' },
      status: {
        phase: 'Failed',
        conditions,
        containerStatuses: [{ name: 'main', state: { terminated: { exitCode } } }],
      },
    }) as Pod;
  expect(matchPodFailurePolicy(policy, failedPod(42))).toEqual({
    action: 'FailJob',
    message: 'Container main for pod ns/p1 failed with exit code 42 matching FailJob rule at index 0',
  });
  expect(
    matchPodFailurePolicy(policy, failedPod(137, [{ type: 'DisruptionTarget', status: 'True' }])),
  ).toEqual({
    action: 'Ignore',
    message: 'Pod ns/p1 has condition DisruptionTarget matching Ignore rule at index 1',
  });
  expect(matchPodFailurePolicy(policy, failedPod(3))?.action).toBe('Count');
  // exit code 1 matches no rule; a pod that did not fail matches none
  expect(matchPodFailurePolicy(policy, failedPod(1))).toBeUndefined();
  expect(
    matchPodFailurePolicy(policy, { ...failedPod(42), status: { phase: 'Running' } } as Pod),
  ).toBeUndefined();
});

test('restartPolicy OnFailure: container restarts of running pods count against backoffLimit', () => {
  const running = (restarts: number): Pod =>
    ({ status: { phase: 'Running', containerStatuses: [{ name: 'c', restartCount: restarts }] } }) as Pod;
  const onFailure = (limit: number): Job =>
    job({ backoffLimit: limit, template: { spec: { restartPolicy: 'OnFailure' } } });
  expect(pastBackoffLimitOnFailure(onFailure(2), [running(1)])).toBe(false);
  expect(pastBackoffLimitOnFailure(onFailure(2), [running(1), running(1)])).toBe(true);
  expect(pastBackoffLimitOnFailure(onFailure(0), [running(1)])).toBe(true);
  // With Never, restarts do not happen: failed pods are counted by the controller instead.
  expect(
    pastBackoffLimitOnFailure(job({ backoffLimit: 0, template: { spec: { restartPolicy: 'Never' } } }), [
      running(5),
    ]),
  ).toBe(false);
});

test('finished means a True Complete or Failed condition', () => {
  expect(isJobFinished(job({}, { conditions: [{ type: 'Complete', status: 'True' }] }))).toBe(true);
  expect(isJobFinished(job({}, { conditions: [{ type: 'Failed', status: 'False' }] }))).toBe(false);
});

test('a suspended job is never past its active deadline', () => {
  const j = job({ activeDeadlineSeconds: 30, suspend: true }, { startTime: '2024-01-01T00:00:00Z' });
  expect(pastActiveDeadline(j, Date.parse('2024-01-01T01:00:00Z'))).toBe(false);
});

const indexedPod = (
  index: string | undefined,
  phase = 'Running',
  created = '2024-01-01T00:00:00Z',
  name = `p${index}`,
): Pod =>
  ({
    metadata: {
      name,
      creationTimestamp: created,
      annotations: index === undefined ? {} : { 'batch.kubernetes.io/job-completion-index': index },
    },
    status: { phase },
  }) as Pod;

test('completion indexes come from the annotation and must be below completions', () => {
  expect(completionIndexOf(indexedPod('2'), 3)).toBe(2);
  expect(completionIndexOf(indexedPod('3'), 3)).toBeUndefined();
  expect(completionIndexOf(indexedPod('01'), 3)).toBeUndefined();
  expect(completionIndexOf(indexedPod('x'), 3)).toBeUndefined();
  expect(completionIndexOf(indexedPod(undefined), 3)).toBeUndefined();
  const j = job({ completionMode: 'Indexed', completions: 5 });
  const pods = ['4', '0', '4', '2', '7'].map((i) => indexedPod(i, 'Succeeded'));
  expect(succeededIndexes(j, [...pods, indexedPod('1', 'Failed'), indexedPod('3')])).toEqual([0, 2, 4]);
});

test("completed indexes in Kubernetes' interval format", () => {
  expect(formatIndexes([])).toBe('');
  expect(formatIndexes([0, 1, 2, 4])).toBe('0-2,4');
  expect(formatIndexes([1, 3, 4, 5, 7])).toBe('1,3-5,7');
  expect(formatIndexes([0, 1, 5, 6, 7, 8])).toBe('0,1,5-8');
  expect(formatIndexes([3])).toBe('3');
});

test('pending indexes: the lowest ones neither succeeded nor running', () => {
  expect(firstPendingIndexes(5, new Set([0, 2]), 2)).toEqual([1, 3]);
  expect(firstPendingIndexes(3, new Set([0, 1, 2]), 2)).toEqual([]);
  expect(firstPendingIndexes(4, new Set(), 10)).toEqual([0, 1, 2, 3]);
});

test('redundant pods of an Indexed job: no index, a succeeded index, or a newer second pod of an index', () => {
  const j = job({ completionMode: 'Indexed', completions: 3 });
  const older = indexedPod('1', 'Running', '2024-01-01T00:00:00Z', 'older');
  const newer = indexedPod('1', 'Running', '2024-01-01T00:01:00Z', 'newer');
  const done = indexedPod('0', 'Running', '2024-01-01T00:00:00Z', 'done');
  const stray = indexedPod(undefined, 'Running', '2024-01-01T00:00:00Z', 'stray');
  const out = indexedPod('5', 'Running', '2024-01-01T00:00:00Z', 'out');
  const names = redundantIndexedPods(j, [newer, older, done, stray, out, indexedPod('2')], new Set([0])).map(
    (p) => p.metadata!.name,
  );
  expect(names.sort()).toEqual(['done', 'newer', 'out', 'stray']);
});

test('the pod of an index: annotation, label, env from the downward API, hostname, name prefix', () => {
  const pod = setCompletionIndex(
    {
      metadata: { generateName: 'work-', labels: { app: 'w' } },
      spec: {
        subdomain: 'svc',
        initContainers: [{ name: 'init', image: 'i' }],
        containers: [
          { name: 'a', image: 'a', env: [{ name: 'X', value: '1' }] },
          { name: 'b', image: 'b', env: [{ name: 'JOB_COMPLETION_INDEX', value: 'mine' }] },
        ],
      },
    } as Pod,
    'work',
    3,
  );
  expect(pod.metadata).toEqual({
    generateName: 'work-3-',
    labels: { app: 'w', 'batch.kubernetes.io/job-completion-index': '3' },
    annotations: { 'batch.kubernetes.io/job-completion-index': '3' },
  });
  const fromAnnotation = {
    name: 'JOB_COMPLETION_INDEX',
    valueFrom: {
      fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" },
    },
  };
  expect(pod.spec!.initContainers![0]!.env).toEqual([fromAnnotation]);
  expect(pod.spec!.containers[0]!.env).toEqual([{ name: 'X', value: '1' }, fromAnnotation]);
  expect(pod.spec!.containers[1]!.env).toEqual([{ name: 'JOB_COMPLETION_INDEX', value: 'mine' }]);
  expect(pod.spec!.hostname).toBe('work-3');
  expect(pod.spec!.subdomain).toBe('svc');
  // Long job names are cut so that the generated name fits 63 characters.
  const long = 'j'.repeat(60);
  expect(podGenerateNameWithIndex(long, 12)).toBe(`${'j'.repeat(54)}-12-`);
  expect(podGenerateNameWithIndex('pi', 0)).toBe('pi-0-');
});

test('terminating pods: being deleted and not finished; Failed replacement waits for them', () => {
  const deleting = (phase: string): Pod =>
    ({ metadata: { deletionTimestamp: '2024-01-01T00:00:00Z' }, status: { phase } }) as Pod;
  expect(
    countTerminatingPods([deleting('Running'), deleting('Pending'), deleting('Failed'), indexedPod('0')]),
  ).toBe(2);
  expect(onlyReplaceFailedPods(job({ podReplacementPolicy: 'Failed' }))).toBe(true);
  expect(onlyReplaceFailedPods(job({ podReplacementPolicy: 'TerminatingOrFailed' }))).toBe(false);
  expect(onlyReplaceFailedPods(job({ podFailurePolicy: { rules: [] } }))).toBe(true);
});

test('the Suspended condition: added when True, flipped with new times, never added as False', () => {
  const t0 = Date.parse('2024-01-01T00:00:00Z');
  const t1 = Date.parse('2024-01-01T00:05:00Z');
  expect(ensureJobConditionStatus([], 'Suspended', 'False', 'JobResumed', 'Job resumed', t0)).toEqual({
    conditions: [],
    changed: false,
  });
  const suspended = ensureJobConditionStatus([], 'Suspended', 'True', 'JobSuspended', 'Job suspended', t0);
  expect(suspended).toEqual({
    changed: true,
    conditions: [
      {
        type: 'Suspended',
        status: 'True',
        reason: 'JobSuspended',
        message: 'Job suspended',
        lastProbeTime: '2024-01-01T00:00:00Z',
        lastTransitionTime: '2024-01-01T00:00:00Z',
      },
    ],
  });
  expect(
    ensureJobConditionStatus(suspended.conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', t1)
      .changed,
  ).toBe(false);
  expect(
    ensureJobConditionStatus(suspended.conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', t1),
  ).toEqual({
    changed: true,
    conditions: [
      {
        type: 'Suspended',
        status: 'False',
        reason: 'JobResumed',
        message: 'Job resumed',
        lastProbeTime: '2024-01-01T00:05:00Z',
        lastTransitionTime: '2024-01-01T00:05:00Z',
      },
    ],
  });
});
