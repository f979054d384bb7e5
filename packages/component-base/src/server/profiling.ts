import { Session } from 'node:inspector';

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as T)));
  });
}

/** Samples the CPU for `seconds` and returns the profile as `.cpuprofile` JSON. */
export async function cpuProfile(seconds: number): Promise<string> {
  const session = new Session();
  session.connect();
  try {
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.start');
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const { profile } = await post<{ profile: unknown }>(session, 'Profiler.stop');
    return JSON.stringify(profile);
  } finally {
    session.disconnect();
  }
}

/** Takes a V8 heap snapshot (`.heapsnapshot` JSON), handing it over in chunks as V8 produces them. */
export async function heapSnapshot(onChunk: (chunk: string) => void): Promise<void> {
  const session = new Session();
  session.connect();
  session.on('HeapProfiler.addHeapSnapshotChunk', (m) => onChunk(m.params.chunk));
  try {
    await post(session, 'HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    session.disconnect();
  }
}
