import {
  parseQuantity,
  type Container,
  type Pod,
  type Quantity,
  type ResourceFieldSelector,
} from '@orch/api';
import { ContainerConfigError } from './buildEnv';

/** The limits the kubelet fills in from the node's allocatable when a container sets none. */
const DEFAULTED_LIMITS = ['cpu', 'memory', 'ephemeral-storage'];
const SELECTABLE = /^(limits|requests)\.(cpu|memory|ephemeral-storage|hugepages-.+)$/;

/** nano-units of a quantity, exactly. */
function nanos(q: Quantity): bigint {
  return q.scaledBigInt(-9);
}

/** ceil(a / b) of positive or negative bigints, b > 0. */
function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}

/** A resource amount in units of `divisor`, rounded up, as the kubelet prints it. */
export function quantityInDivisor(amount: Quantity, divisor: Quantity): string {
  const d = nanos(divisor);
  if (d <= 0n) throw new ContainerConfigError(`invalid divisor: ${divisor.toString()}`);
  return ceilDiv(nanos(amount), d).toString();
}

/**
 * The value of a `resourceFieldRef` env var (Kubernetes' ExtractContainerResourceValue on the pod the
 * kubelet defaults for the downward API): `limits.<r>` or `requests.<r>` of the container named by
 * `containerName` (the container itself by default) in units of `divisor` (1), rounded up. A limit
 * on cpu, memory or ephemeral-storage that is unset or zero is the node's allocatable; an unset
 * request is 0.
 */
export function resourceFieldValue(
  pod: Pod,
  container: Container,
  ref: ResourceFieldSelector,
  allocatable: Record<string, string>,
): string {
  const target = ref.containerName
    ? [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find(
        (c) => c.name === ref.containerName,
      )
    : container;
  if (!target) throw new ContainerConfigError(`container ${ref.containerName} not found`);
  const m = SELECTABLE.exec(ref.resource ?? '');
  if (!m) throw new ContainerConfigError(`unsupported container resource : ${ref.resource ?? ''}`);
  const [, kind, name] = m as unknown as [string, 'limits' | 'requests', string];
  const list = (target.resources?.[kind] ?? {}) as Record<string, unknown>;
  let amount = list[name] === undefined ? undefined : parseQuantity(String(list[name]));
  if (kind === 'limits' && DEFAULTED_LIMITS.includes(name) && (!amount || amount.isZero())) {
    const cap = allocatable[name];
    if (cap !== undefined) amount = parseQuantity(cap);
  }
  const divisor = ref.divisor === undefined || ref.divisor === '' ? '1' : String(ref.divisor);
  return quantityInDivisor(amount ?? parseQuantity('0'), parseQuantity(divisor));
}
