import type { Node } from '../../kinds/core/node';

export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
export const LABEL_FAILURE_DOMAIN_BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
export const LABEL_FAILURE_DOMAIN_BETA_REGION = 'failure-domain.beta.kubernetes.io/region';

const ZONE_LABELS = [LABEL_TOPOLOGY_ZONE, LABEL_FAILURE_DOMAIN_BETA_ZONE];
const REGION_LABELS = [LABEL_TOPOLOGY_REGION, LABEL_FAILURE_DOMAIN_BETA_REGION];

/**
 * The zone a node is in, from its region and zone labels (the stable topology.kubernetes.io ones or
 * the beta failure-domain ones): `region:\0:zone`, or '' when it has neither (Kubernetes' GetZoneKey).
 */
export function nodeZoneKey(node: Node): string {
  const labels = node.metadata?.labels ?? {};
  const first = (keys: string[]): string => keys.map((k) => labels[k] ?? '').find((v) => v !== '') ?? '';
  const region = first(REGION_LABELS);
  const zone = first(ZONE_LABELS);
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}
