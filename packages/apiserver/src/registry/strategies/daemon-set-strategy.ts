import { DAEMONSET_TEMPLATE_GENERATION_ANNOTATION } from '@orch/api';
import { jsonEqual, type ApiObject } from '../object';
import { Strategy } from '../strategy';

interface DaemonSetLike {
  metadata: { annotations?: Record<string, string> };
  spec?: { template?: unknown };
}

/**
 * DaemonSets: the template generation, which apps/v1 carries in an annotation, is the server's: 1 on
 * create, the stored value on update, one more when the template changes (Kubernetes'
 * daemonSetStrategy). The daemon set controller labels its pods with it.
 */
export class DaemonSetStrategy extends Strategy {
  override prepareForCreate(obj: ApiObject, now: Date): void {
    super.prepareForCreate(obj, now);
    setTemplateGeneration(obj as DaemonSetLike, 1);
  }

  override prepareForUpdate(obj: ApiObject, old: ApiObject, subresource = ''): void {
    super.prepareForUpdate(obj, old, subresource);
    if (subresource) return;
    const stored = Number(
      (old as DaemonSetLike).metadata.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION] ?? 0,
    );
    const generation = Number.isSafeInteger(stored) && stored > 0 ? stored : 0;
    const changed = !jsonEqual((obj as DaemonSetLike).spec?.template, (old as DaemonSetLike).spec?.template);
    if (generation === 0 && !changed) {
      delete (obj as DaemonSetLike).metadata.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION];
      return;
    }
    setTemplateGeneration(obj as DaemonSetLike, generation + (changed ? 1 : 0));
  }
}

function setTemplateGeneration(ds: DaemonSetLike, generation: number): void {
  ds.metadata.annotations = {
    ...ds.metadata.annotations,
    [DAEMONSET_TEMPLATE_GENERATION_ANNOTATION]: String(generation),
  };
}
