import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SummaryProvider } from './SummaryProvider';

function send(res: ServerResponse, code: number, contentType: string, body: string): void {
  res.writeHead(code, { 'Content-Type': contentType, 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}

/**
 * GET /stats/summary: the Summary API of one of the agent's nodes, named by the `node` parameter
 * (the kubelet serves its only node; an agent with one node needs none). `only_cpu_and_memory` is
 * accepted: CPU and memory is all the summary holds.
 */
export async function serveSummary(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  provider: SummaryProvider | undefined,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    return;
  }
  const names = provider?.nodeNames ?? [];
  const node = url.searchParams.get('node') || (names.length === 1 ? names[0]! : '');
  if (!provider || !node) {
    send(res, 400, 'text/plain; charset=utf-8', 'the node parameter names one of the agent’s nodes\n');
    return;
  }
  const summary = await provider.summary(node);
  if (!summary) {
    send(res, 404, 'text/plain; charset=utf-8', `node "${node}" is not one of the agent’s nodes\n`);
    return;
  }
  send(res, 200, 'application/json', req.method === 'HEAD' ? '' : JSON.stringify(summary));
}
