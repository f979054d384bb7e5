import { generateJobSelector, type Job } from '@orch/api';
import type { ApiObject } from '../object';
import { Strategy } from '../strategy';

/**
 * Jobs: unless manualSelector, the selector is generated from the job's uid (controller-uid), as
 * Kubernetes does. A job whose labels are its pod template's (SetDefaults_Job gives a job without
 * labels the template's) gets the generated labels too: in Kubernetes both are one map, to which
 * the selector's generation adds them.
 */
export class JobStrategy extends Strategy {
  override prepareForCreate(obj: ApiObject, now: Date): void {
    super.prepareForCreate(obj, now);
    const job = obj as unknown as Job;
    const shared = sameLabels(job.metadata?.labels, job.spec?.template.metadata?.labels);
    generateJobSelector(job);
    const template = job.spec?.template.metadata?.labels;
    if (shared && template && job.metadata) job.metadata.labels = { ...template };
  }
}

/** Whether a job's labels are its template's: none, or the same set. */
function sameLabels(own: Record<string, string> | undefined, template: Record<string, string> | undefined) {
  const keys = Object.keys(own ?? {});
  if (keys.length === 0) return true;
  return keys.length === Object.keys(template ?? {}).length && keys.every((k) => template?.[k] === own?.[k]);
}
