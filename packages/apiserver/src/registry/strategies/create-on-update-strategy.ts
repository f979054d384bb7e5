import { Strategy } from '../strategy';

/** Kinds a PUT may create (Kubernetes allows it for endpoints, events and leases). */
export class CreateOnUpdateStrategy extends Strategy {
  override allowCreateOnUpdate = true;
}
