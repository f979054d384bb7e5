import { goQuote } from '../goQuote';
import {
  LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_TOPOLOGY_REGION,
  LABEL_TOPOLOGY_ZONE,
} from '../scheduling/zoneKey';

/** The labels naming the zones and regions a volume is available in (and a node is in). */
export const VOLUME_ZONE_LABELS: ReadonlySet<string> = new Set([
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_TOPOLOGY_ZONE,
  LABEL_TOPOLOGY_REGION,
]);

/** Separates the zones of a volume available in several (Kubernetes' LabelMultiZoneDelimiter). */
export const LABEL_MULTI_ZONE_DELIMITER = '__';

/**
 * The zones of a zone label value, `__`-separated and trimmed (Kubernetes' LabelZonesToSet); throws
 * when one of them is empty.
 */
export function labelZonesToSet(value: string): Set<string> {
  const zones = new Set<string>();
  for (const part of value.split(LABEL_MULTI_ZONE_DELIMITER)) {
    const zone = part.trim();
    if (zone === '')
      throw new Error(
        `${goQuote(LABEL_MULTI_ZONE_DELIMITER)} separated list (${goQuote(value)}) must not contain an empty string`,
      );
    zones.add(zone);
  }
  return zones;
}
