import type { KindDeclaration } from '@orch/api';
import type { UserInfo } from '../authn/authenticator';
import type { ApiObject } from '../registry/object';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What an admission plugin sees of a request (Kubernetes' admission.Attributes). */
export interface AdmissionAttributes {
  operation: Operation;
  declaration: KindDeclaration<any>;
  /** The resource (plural) and subresource of the request. */
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The object as it will be stored (mutable for mutating plugins); for DELETE the stored object. */
  object?: ApiObject;
  /** The stored object on UPDATE and DELETE. */
  oldObject?: ApiObject;
  user?: UserInfo;
  dryRun: boolean;
}

/**
 * An admission plugin. `admit` may change the object (mutating phase, before validation); `validate`
 * may only reject (after validation). Either rejects by throwing a StatusError (usually 403 Forbidden
 * or 422 Invalid, as the Kubernetes plugin of the same name does).
 */
export interface AdmissionPlugin {
  readonly name: string;
  /** The operations this plugin looks at. */
  handles(operation: Operation): boolean;
  admit?(attributes: AdmissionAttributes): Promise<void>;
  validate?(attributes: AdmissionAttributes): Promise<void>;
}

/** The configured plugins, run in order: every admit, then (after validation) every validate. */
export class AdmissionChain {
  constructor(readonly plugins: readonly AdmissionPlugin[] = []) {}

  async admit(a: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.admit && p.handles(a.operation)) await p.admit(a);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.validate && p.handles(a.operation)) await p.validate(a);
  }
}
