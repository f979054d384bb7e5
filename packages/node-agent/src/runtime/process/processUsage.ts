import { parseTime, type Pod } from '@orch/api';
import { readProcessGroups } from '../../stats/processGroups';
import type { PodUsage } from '../PodRunner';

/** A running container of the process runtime: its process group leader and when it started. */
export interface RunningContainer {
  name: string;
  pid: number;
  startedAt: string;
}

/**
 * The usage of pods of the process runtime, read from /proc: each container is the process group
 * its process leads (CPU of its processes and their reaped children, resident memory as its
 * working set). Containers whose group has no process left are left out, and pods without any.
 */
export async function processPodUsage(
  pods: readonly { pod: Pod; containers: readonly RunningContainer[] }[],
  procDir?: string,
): Promise<PodUsage[]> {
  const groups = await readProcessGroups(
    pods.flatMap((p) => p.containers.map((c) => c.pid)),
    procDir,
  );
  return pods.flatMap(({ pod, containers }) => {
    const usage = containers.flatMap((c) => {
      const g = groups.get(c.pid);
      return g
        ? [
            {
              name: c.name,
              startedAt: parseTime(c.startedAt),
              cpuCoreNanoSeconds: g.cpuCoreNanoSeconds,
              workingSetBytes: g.rssBytes,
            },
          ]
        : [];
    });
    if (!usage.length) return [];
    return [
      {
        namespace: pod.metadata?.namespace ?? '',
        name: pod.metadata?.name ?? '',
        uid: pod.metadata?.uid ?? '',
        ...(pod.status?.startTime ? { startTime: pod.status.startTime } : {}),
        containers: usage,
      },
    ];
  });
}
