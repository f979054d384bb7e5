import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { formatTime, type Pod, type RESTMapper, type RESTMapping, type Summary } from '@orch/api';
import { StatusError, statusErrors } from '../errors/status-error';
import type { VirtualHandler } from '../registry/custom-handlers';
import type { GenericStore, RequestScope } from '../registry/generic-store';
import { parseListOptions, type ListOptions } from '../registry/list-options';
import type { ApiObject } from '../registry/object';
import {
  nodeAgentAt,
  readAll,
  type KubeletClientConfig,
  type NodeAgentTarget,
  type NodeLike,
} from '../registry/strategies/pod-log';
import { nodeMetricsOf, podMetricsOf } from './summary-metrics';

/** What the resource metrics API is installed on (the APIServer). */
export interface ResourceMetricsHost {
  readonly virtualHandlers: Map<string, VirtualHandler>;
  readonly mapper: RESTMapper;
  storeFor(mapping: RESTMapping): GenericStore;
}

const GROUP = 'metrics.k8s.io';

/** GET `/stats/summary` of a node from its node agent (one agent may serve several nodes: `node` names it). */
export async function fetchSummary(target: NodeAgentTarget, nodeName: string): Promise<Summary> {
  const path = `/stats/summary?only_cpu_and_memory=true&node=${encodeURIComponent(nodeName)}`;
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = https.get({ ...target.options, path }, resolve);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => reject(new Error(`Get "https://${target.host}${path}": ${err.message}`)));
  });
  const body = await readAll(res);
  const code = res.statusCode ?? 500;
  if (code !== 200) throw new Error(`the node agent of ${nodeName} answered ${code}: ${body.trim()}`);
  return JSON.parse(body) as Summary;
}

/**
 * Serves metrics.k8s.io/v1beta1 as metrics-server does, reading each node agent's `/stats/summary`
 * when asked (get and list only): `nodes` (NodeMetrics) and `namespaces/<ns>/pods` (PodMetrics).
 * Nodes and pods whose agent does not answer, or does not report them, have no metrics: they are
 * left out of lists and not found by name.
 */
export function installResourceMetrics(
  host: ResourceMetricsHost,
  kubelet: () => KubeletClientConfig | undefined,
): void {
  const storeOf = (resource: string): GenericStore => {
    const m = host.mapper.forResource('', 'v1', resource);
    if (!m) throw statusErrors.serviceUnavailable(`${resource} are not served`);
    return host.storeFor(m);
  };
  const scopeOf = (namespace: string): RequestScope => ({ namespace, apiVersion: 'v1', dryRun: false });
  const summaryOf = async (node: ApiObject): Promise<Summary | undefined> => {
    const name = node.metadata.name ?? '';
    try {
      return await fetchSummary(nodeAgentAt(node as NodeLike, name, kubelet, new URLSearchParams()), name);
    } catch {
      return undefined;
    }
  };
  const listOptions = (q: URLSearchParams): ListOptions => ({
    ...parseListOptions(q),
    limit: 0,
    continue: undefined,
    resourceVersion: undefined,
    resourceVersionMatch: undefined,
    watch: false,
  });

  host.virtualHandlers.set(`${GROUP}/nodes`, async (_decl, request) => {
    const now = formatTime(Date.now());
    const apiVersion = request.scope.apiVersion;
    const nodes = storeOf('nodes');
    if (request.verb === 'get') {
      const notFound = () => statusErrors.notFound({ group: GROUP, resource: 'nodemetrics' }, request.name);
      const node = await nodes.get(scopeOf(''), request.name).catch(missing);
      const summary = node && (await summaryOf(node));
      const m = summary && nodeMetricsOf(summary.node, metaOf(node), apiVersion, now);
      if (!m) throw notFound();
      return { code: 200, object: m };
    }
    const list = await nodes.list(scopeOf(''), listOptions(request.query));
    const items = await Promise.all(
      list.items.map(async (node) => {
        const summary = await summaryOf(node);
        return summary && nodeMetricsOf(summary.node, metaOf(node), apiVersion, now);
      }),
    );
    return { code: 200, object: { items: items.filter((m) => m !== undefined) } };
  });

  host.virtualHandlers.set(`${GROUP}/pods`, async (_decl, request) => {
    const now = formatTime(Date.now());
    const apiVersion = request.scope.apiVersion;
    const namespace = request.scope.namespace;
    const pods: Pod[] =
      request.verb === 'get'
        ? [
            (await storeOf('pods').get(scopeOf(namespace), request.name).catch(missing)) as Pod | undefined,
          ].filter((p) => p !== undefined)
        : ((await storeOf('pods').list(scopeOf(namespace), listOptions(request.query))).items as Pod[]);
    // one summary per node the pods run on
    const nodeNames = [...new Set(pods.map((p) => p.spec?.nodeName).filter((n) => !!n))] as string[];
    const nodes = storeOf('nodes');
    const summaries = new Map<string, Summary>();
    await Promise.all(
      nodeNames.map(async (name) => {
        const node = await nodes.get(scopeOf(''), name).catch(missing);
        const summary = node && (await summaryOf(node));
        if (summary) summaries.set(name, summary);
      }),
    );
    const items = pods.flatMap((pod) => {
      const stats = summaries
        .get(pod.spec?.nodeName ?? '')
        ?.pods.find(
          (s) =>
            s.podRef.namespace === pod.metadata?.namespace &&
            s.podRef.name === pod.metadata?.name &&
            (!s.podRef.uid || s.podRef.uid === pod.metadata?.uid),
        );
      const m = stats && podMetricsOf(stats, metaOf(pod as ApiObject), apiVersion, now);
      return m ? [m] : [];
    });
    if (request.verb === 'get') {
      if (!items.length)
        throw statusErrors.notFound({ group: GROUP, resource: 'podmetrics' }, `${namespace}/${request.name}`);
      return { code: 200, object: items[0] };
    }
    return { code: 200, object: { items } };
  });
}

/** A read that found nothing is undefined; other errors stay errors. */
function missing(err: unknown): undefined {
  if (err instanceof StatusError && err.code === 404) return undefined;
  throw err;
}

function metaOf(obj: { metadata?: { name?: string; namespace?: string; labels?: Record<string, string> } }) {
  return {
    name: obj.metadata?.name ?? '',
    ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
    ...(obj.metadata?.labels ? { labels: obj.metadata.labels } : {}),
  };
}
