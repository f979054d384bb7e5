import { TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE } from '@orch/api';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';

interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/** The NoExecute taints that every pod tolerates for a while unless it says otherwise. */
const defaults: Toleration[] = [
  { key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** DefaultTolerationSeconds: pods tolerate not-ready and unreachable nodes for 300 s by default. */
export class DefaultTolerationSeconds implements AdmissionPlugin {
  readonly name = 'DefaultTolerationSeconds';

  handles(operation: Operation): boolean {
    return operation === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.declaration.group !== '' || a.resource !== 'pods' || a.subresource || !a.object) return;
    const spec = (a.object.spec ?? {}) as { tolerations?: Toleration[] };
    const tolerations = spec.tolerations ?? [];
    for (const d of defaults) {
      const covered = tolerations.some(
        (t) =>
          (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute') &&
          (t.key === d.key || (!t.key && t.operator === 'Exists')),
      );
      if (!covered) tolerations.push({ ...d });
    }
    spec.tolerations = tolerations;
    a.object.spec = spec;
  }
}
