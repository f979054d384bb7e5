import https from 'node:https';
import type { SuiteCluster } from './cluster';

export interface WatchEventOf<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

interface Versioned {
  metadata?: { resourceVersion?: string };
}

/**
 * Watches a collection as the admin (e.g. `/apis/batch/v1/namespaces/default/jobs`, query allowed)
 * and hands every event to `onEvent`. A stream the server ends is resumed from the last
 * resourceVersion seen, so a long test observes every change; `stop()` closes it for good.
 */
export function watchObjects<T extends Versioned>(
  s: SuiteCluster,
  path: string,
  onEvent: (event: WatchEventOf<T>) => void,
): { stop(): void } {
  const { pki, url } = s.api;
  let stopped = false;
  let resourceVersion = '';
  let req: ReturnType<typeof https.get> | undefined;
  let retry: NodeJS.Timeout | undefined;

  const reconnect = (): void => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect();
    }, 250);
  };
  const connect = (): void => {
    const query = `watch=1${resourceVersion ? `&resourceVersion=${resourceVersion}` : ''}`;
    req = https.get(
      `${url}${path}${path.includes('?') ? '&' : '?'}${query}`,
      { ca: pki.ca, cert: pki.admin.cert, key: pki.admin.key },
      (res) => {
        if (res.statusCode !== 200) {
          // e.g. 410 Gone: the version to resume from is compacted; start over
          resourceVersion = '';
          res.resume();
          res.on('end', reconnect);
          return;
        }
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i).trim();
            buf = buf.slice(i + 1);
            if (!line) continue;
            const event = JSON.parse(line) as WatchEventOf<T>;
            if (event.type === 'ERROR') {
              resourceVersion = '';
              continue;
            }
            resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion;
            if (event.type !== 'BOOKMARK') onEvent(event);
          }
        });
        res.on('end', reconnect);
        res.on('error', reconnect);
      },
    );
    req.on('error', reconnect);
  };
  connect();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(retry);
      req?.destroy();
    },
  };
}
