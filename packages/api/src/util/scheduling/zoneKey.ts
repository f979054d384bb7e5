import type { Node } from '../../kinds/core/node';

export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
export const LABEL_FAILURE_DOMAIN_BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
export const LABEL_FAILURE_DOMAIN_BETA_REGION = 'failure-domain.beta.kubernetes.io/region';

/**
 * The zone a node is in, from its region and zone labels (the stable topology.kubernetes.io ones or
 * the beta failure-domain ones): `region:\0:zone`, or '' when it has neither (Kubernetes' GetZoneKey).
 */
export function nodeZoneKey(node: Node): string {
  const labels = node.metadata?.labels;
  if (!labels) return '';
  // the first label of each pair that is set and not empty
  const region = labels[LABEL_TOPOLOGY_REGION] || labels[LABEL_FAILURE_DOMAIN_BETA_REGION] || '';
  const zone = labels[LABEL_TOPOLOGY_ZONE] || labels[LABEL_FAILURE_DOMAIN_BETA_ZONE] || '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}
