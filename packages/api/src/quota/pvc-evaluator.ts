import { newQuantity } from '../util/quantity';
import { objectCountResourceName } from './object-count-evaluator';
import { matchesNoScope, type QuotaEvaluator, type QuotaObject } from './quota-evaluator';
import { parseResourceList, type ResourceList } from './resource-list';

interface QuotaClaim extends QuotaObject {
  spec?: {
    storageClassName?: string | null;
    resources?: { requests?: Record<string, unknown> | null } | null;
  } | null;
  status?: { allocatedResources?: Record<string, unknown> | null } | null;
}

/** `<storage-class>.storageclass.storage.k8s.io/<resource>`: a claim resource charged to its class. */
export const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

const claimCount = objectCountResourceName('', 'persistentvolumeclaims');
const claimResources = [claimCount, 'persistentvolumeclaims', 'requests.storage'];

/** The claim's storage class: the beta annotation, else spec.storageClassName. */
function storageClassOf(claim: QuotaClaim): string {
  return (
    claim.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ??
    claim.spec?.storageClassName ??
    ''
  );
}

/**
 * The persistent volume claim evaluator: every claim counts once and charges its storage request
 * (or what has been allocated to it, if more), in total and to its storage class. Updates count, as
 * a claim's request can grow.
 */
export const pvcEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'persistentvolumeclaims',
  handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
  matchingResources: (input) =>
    input.filter(
      (n) => claimResources.includes(n) || claimResources.some((r) => n.endsWith(STORAGE_CLASS_SUFFIX + r)),
    ),
  matchesScope: matchesNoScope,
  constraints: () => undefined,
  usage: (obj) => {
    const claim = obj as QuotaClaim;
    const one = newQuantity(1, 'DecimalSI');
    const out: ResourceList = { persistentvolumeclaims: one, [claimCount]: one };
    const storageClass = storageClassOf(claim);
    if (storageClass) out[`${storageClass}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`] = one;
    let storage = parseResourceList(claim.spec?.resources?.requests).storage;
    const allocated = parseResourceList(claim.status?.allocatedResources).storage;
    if (allocated && (!storage || allocated.cmp(storage) > 0)) storage = allocated;
    if (storage) {
      out['requests.storage'] = storage;
      if (storageClass) out[`${storageClass}${STORAGE_CLASS_SUFFIX}requests.storage`] = storage;
    }
    return out;
  },
};
