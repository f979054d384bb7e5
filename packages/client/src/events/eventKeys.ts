import type { Event } from '@orch/api';

const join = (parts: (string | undefined)[]): string => parts.map((p) => p ?? '').join('');

/** The object and source of an event: the spam filter's key. */
export function spamKey(e: Event): string {
  const o = e.involvedObject ?? {};
  return join([e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion]);
}

/** Events differing only in their message share this key (aggregation). */
export function aggregateKey(e: Event): string {
  const o = e.involvedObject ?? {};
  return join([
    e.source?.component,
    e.source?.host,
    o.kind,
    o.namespace,
    o.name,
    o.uid,
    o.apiVersion,
    e.type,
    e.reason,
    e.reportingComponent,
    e.reportingInstance,
  ]);
}

/** Identical events share this key (deduplication by count). */
export function eventKey(e: Event): string {
  const o = e.involvedObject ?? {};
  return join([
    e.source?.component,
    e.source?.host,
    o.kind,
    o.namespace,
    o.name,
    o.fieldPath,
    o.uid,
    o.apiVersion,
    e.type,
    e.reason,
    e.message,
  ]);
}
