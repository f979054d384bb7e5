import type { ApiObject } from '../object';
import { Strategy } from '../strategy';

interface JobSpec {
  manualSelector?: boolean;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  template?: { metadata?: { labels?: Record<string, string> } };
}

/** Jobs: unless manualSelector, the selector is generated from the job's uid (controller-uid), as Kubernetes does. */
export class JobStrategy extends Strategy {
  override prepareForCreate(obj: ApiObject, now: Date): void {
    super.prepareForCreate(obj, now);
    const spec = (obj.spec ?? {}) as JobSpec;
    if (spec.manualSelector) return;
    const uid = obj.metadata.uid!;
    const labels = { 'controller-uid': uid, 'job-name': obj.metadata.name ?? '' };
    spec.selector = { matchLabels: { 'controller-uid': uid } };
    spec.template = spec.template ?? {};
    spec.template.metadata = spec.template.metadata ?? {};
    spec.template.metadata.labels = { ...(spec.template.metadata.labels ?? {}), ...labels };
    obj.spec = spec;
  }
}
