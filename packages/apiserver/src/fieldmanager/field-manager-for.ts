import { FieldManager, type KindDeclaration } from '@orch/api';

const managers = new WeakMap<KindDeclaration<any>, FieldManager>();

/** The field manager of a kind (one per declaration; the merge metadata it reads is cached per schema node). */
export function fieldManagerFor(declaration: KindDeclaration<any>): FieldManager {
  let fm = managers.get(declaration);
  if (fm === undefined) {
    fm = new FieldManager(declaration.schema, {
      statusSubresource: Boolean(declaration.subresources?.status),
    });
    managers.set(declaration, fm);
  }
  return fm;
}
