import type { NameFormat } from '../schema/fields';
import {
  isCIdentifier,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidEnvVarName,
  isValidIP,
  isValidLabelValue,
  isValidPortName,
} from '../util/names';
import { memoizeCheck } from './memo-check';
import { quantityErrors } from './quantity-value';
import { checkCronFields } from '../util/cron-fields';
import { isTimeZoneName } from '../util/time-zone';

const NONE: readonly string[] = Object.freeze([]);

/** Descriptors accepted by Kubernetes' standard cron parser besides five fields. */
const cronDescriptors = new Set([
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
]);
const everyRegexp = /^@every\s+([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;

/**
 * A CronJob schedule as Kubernetes' standard parser accepts it: five fields or a descriptor.
 * Messages follow the parser Kubernetes uses where it has one (`Expected exactly 5 fields, found 1: foo`).
 */
export function cronErrors(schedule: string): readonly string[] {
  let spec = schedule.trim();
  // a leading TZ=<zone> or CRON_TZ=<zone> names the schedule's time zone (the CronJob rules refuse it)
  const zone = /^(?:CRON_)?TZ=(\S*)\s*/.exec(spec);
  if (zone) {
    if (!isTimeZoneName(zone[1]!)) return [`provided bad location ${zone[1]}: unknown time zone ${zone[1]}`];
    spec = spec.slice(zone[0].length);
  }
  if (spec.startsWith('@')) {
    if (cronDescriptors.has(spec) || everyRegexp.test(spec)) return NONE;
    return [`Unrecognized descriptor: ${spec}`];
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return [`Expected exactly 5 fields, found ${fields.length}: ${spec}`];
  try {
    checkCronFields(fields);
    return NONE;
  } catch (e) {
    return [(e as Error).message];
  }
}

/** The checks behind the `x-orch-format` keyword: Kubernetes' validators and messages (memoized). */
export const formatChecks: Record<NameFormat, (value: string) => readonly string[]> = {
  'dns1123-label': memoizeCheck(isDNS1123Label),
  'dns1123-subdomain': memoizeCheck(isDNS1123Subdomain),
  'dns1035-label': memoizeCheck(isDNS1035Label),
  'c-identifier': memoizeCheck(isCIdentifier),
  'env-var-name': memoizeCheck(isValidEnvVarName),
  'qualified-name': memoizeCheck(isQualifiedName),
  'label-value': memoizeCheck(isValidLabelValue),
  'port-name': memoizeCheck(isValidPortName),
  ip: memoizeCheck(isValidIP),
  quantity: quantityErrors,
  cron: cronErrors,
};
