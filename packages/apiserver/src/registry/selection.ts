import type { FieldsSelector, KindDeclaration, LabelsSelector } from '@orch/api';
import { statusErrors } from '../errors/status-error';
import type { ApiObject } from './object';

/** Field values of an object of the kind for fieldSelector matching. */
export function fieldsOf(decl: KindDeclaration<any>, obj: ApiObject): Record<string, string> {
  const fields: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
  if (decl.namespaced) fields['metadata.namespace'] = obj.metadata.namespace ?? '';
  for (const [field, get] of Object.entries(decl.selectableFields ?? {})) fields[field] = get(obj) ?? '';
  return fields;
}

/** Fields usable in a fieldSelector for the kind. */
export function selectableFields(decl: KindDeclaration<any>): Set<string> {
  const s = new Set(['metadata.name']);
  if (decl.namespaced) s.add('metadata.namespace');
  for (const f of Object.keys(decl.selectableFields ?? {})) s.add(f);
  return s;
}

/** A 400 when the selector names a field the kind cannot be selected by. */
export function checkFieldSelector(decl: KindDeclaration<any>, selector: FieldsSelector): void {
  const selectable = selectableFields(decl);
  for (const r of selector.requirements()) {
    if (!selectable.has(r.field)) throw statusErrors.badRequest(`field label not supported: ${r.field}`);
  }
}

/** Whether an object of the kind matches a list's label and field selectors. */
export function objectMatcher(
  decl: KindDeclaration<any>,
  labels: LabelsSelector,
  fields: FieldsSelector,
): (obj: ApiObject) => boolean {
  if (labels.empty() && fields.empty()) return () => true;
  return (obj) =>
    labels.matches(obj.metadata.labels) && (fields.empty() || fields.matches(fieldsOf(decl, obj)));
}
