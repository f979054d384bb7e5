import { statusErrors } from '../../errors/status-error';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import type { ObjectLookup } from '../object-lookup';

/** Namespaces that can never be deleted. */
export const immortalNamespaces = new Set(['default', 'orch-system', 'orch-public']);

/**
 * NamespaceLifecycle: nothing is created in a namespace that does not exist or is being terminated,
 * and the system namespaces cannot be deleted.
 */
export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = 'NamespaceLifecycle';

  constructor(private readonly lookup: ObjectLookup) {}

  handles(operation: Operation): boolean {
    return operation === 'CREATE' || operation === 'DELETE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (
      a.operation === 'DELETE' &&
      a.resource === 'namespaces' &&
      a.declaration.group === '' &&
      !a.subresource
    ) {
      if (immortalNamespaces.has(a.name)) throw admissionForbidden(a, 'this namespace may not be deleted');
      return;
    }
    if (a.operation !== 'CREATE' || !a.declaration.namespaced || !a.namespace) return;
    const ns = await this.lookup.get('', 'namespaces', '', a.namespace);
    if (!ns) throw statusErrors.notFound({ group: '', resource: 'namespaces' }, a.namespace);
    const phase = (ns.status as { phase?: string } | undefined)?.phase;
    if (phase === 'Terminating' || ns.metadata.deletionTimestamp) {
      const e = admissionForbidden(
        a,
        `unable to create new content in namespace ${a.namespace} because it is being terminated`,
      );
      e.status.details = {
        ...e.status.details,
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${a.namespace} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      };
      throw e;
    }
  }
}
