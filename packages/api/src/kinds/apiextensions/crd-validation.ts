/**
 * Kubernetes' validation of CustomResourceDefinitions (apiextensions-apiserver's
 * ValidateCustomResourceDefinition): the rules a declaration cannot say field by field.
 */
import type { FieldErrorLike } from '../../schema/fields';
import { child, invalid, notSupported, required } from '../../validation/field-error';
import { isDNS1035Label, isDNS1123Subdomain } from '../../util/names/identifiers';

type Json = Record<string, any>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Kubernetes' v1 defaults of a spec: singular and listKind from the kind, conversion None. */
export function defaultCustomResourceDefinitionSpec(spec: Json): void {
  const names = spec.names;
  if (isObject(names) && typeof names.kind === 'string' && names.kind) {
    if (!names.singular) names.singular = names.kind.toLowerCase();
    if (!names.listKind) names.listKind = `${names.kind}List`;
  }
  if (!isObject(spec.conversion)) spec.conversion = { strategy: 'None' };
  else if (!spec.conversion.strategy) spec.conversion.strategy = 'None';
}

/** Create validation of a whole definition (`path` is the object's, '' at the root). */
export function validateCustomResourceDefinition(crd: Json, path = ''): FieldErrorLike[] {
  const out: FieldErrorLike[] = [];
  const spec = isObject(crd.spec) ? crd.spec : {};
  const names = isObject(spec.names) ? spec.names : {};
  const name = crd.metadata?.name;
  if (typeof name === 'string' && name && name !== `${names.plural}.${spec.group}`)
    out.push(
      invalid(child(child(path, 'metadata'), 'name'), name, 'must be spec.names.plural+"."+spec.group'),
    );
  validateSpec(spec, child(path, 'spec'), out);
  return out;
}

function validateSpec(spec: Json, path: string, out: FieldErrorLike[]): void {
  const group = spec.group;
  if (!group) out.push(required(child(path, 'group')));
  else {
    const errs = isDNS1123Subdomain(String(group));
    if (errs.length) out.push(invalid(child(path, 'group'), group, errs.join(',')));
    else if (String(group).split('.').length < 2)
      out.push(invalid(child(path, 'group'), group, 'should be a domain with at least one dot'));
  }
  if (!spec.scope) out.push(required(child(path, 'scope')));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced')
    out.push(notSupported(child(path, 'scope'), spec.scope, ['Cluster', 'Namespaced']));

  const versions: Json[] = Array.isArray(spec.versions) ? spec.versions : [];
  const versionsPath = child(path, 'versions');
  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  versions.forEach((v, i) => {
    const vp = child(versionsPath, i);
    if (v.storage === true) storage++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const errs = isDNS1035Label(String(v.name ?? ''));
    if (errs.length) out.push(invalid(child(vp, 'name'), v.name ?? '', errs.join(',')));
    const schema = v.schema?.openAPIV3Schema;
    const schemaPath = child(child(vp, 'schema'), 'openAPIV3Schema');
    if (!isObject(schema)) out.push(required(schemaPath, 'schemas are required'));
    else validateStructuralRoot(schema, schemaPath, out);
    (Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : []).forEach(
      (c: Json, j: number) => validateColumn(c, child(child(vp, 'additionalPrinterColumns'), j), out),
    );
    const scale = v.subresources?.scale;
    if (isObject(scale)) validateScale(scale, child(child(vp, 'subresources'), 'scale'), out);
  });
  if (!unique) out.push(invalid(versionsPath, versions, 'must contain unique version names'));
  if (storage !== 1)
    out.push(invalid(versionsPath, versions, 'must have exactly one version marked as storage version'));

  validateNames(isObject(spec.names) ? spec.names : {}, child(path, 'names'), out);
  if (spec.preserveUnknownFields === true)
    out.push(
      invalid(
        child(path, 'preserveUnknownFields'),
        true,
        'must be false in order to use defaults in the schema',
      ),
    );
  const strategy = spec.conversion?.strategy;
  if (strategy !== undefined && strategy !== 'None' && strategy !== 'Webhook')
    out.push(notSupported(child(child(path, 'conversion'), 'strategy'), strategy, ['None', 'Webhook']));
}

/** ValidateCustomResourceDefinitionNames. */
function validateNames(names: Json, path: string, out: FieldErrorLike[]): void {
  const dns1035 = (field: string, mixedCase: boolean): void => {
    const value = names[field];
    if (value === undefined || value === '') {
      if (field === 'plural' || field === 'singular' || field === 'kind' || field === 'listKind')
        out.push(required(child(path, field)));
      return;
    }
    const errs = isDNS1035Label(mixedCase ? String(value).toLowerCase() : String(value));
    if (errs.length)
      out.push(
        invalid(
          child(path, field),
          value,
          mixedCase ? `may have mixed case, but should otherwise match: ${errs.join(',')}` : errs.join(','),
        ),
      );
  };
  dns1035('plural', false);
  dns1035('singular', false);
  (Array.isArray(names.shortNames) ? names.shortNames : []).forEach((s: string, i: number) => {
    const errs = isDNS1035Label(String(s));
    if (errs.length) out.push(invalid(child(child(path, 'shortNames'), i), s, errs.join(',')));
  });
  dns1035('kind', true);
  dns1035('listKind', true);
  if (names.kind && names.kind === names.listKind)
    out.push(invalid(child(path, 'listKind'), names.listKind, 'kind and listKind may not be the same'));
  (Array.isArray(names.categories) ? names.categories : []).forEach((s: string, i: number) => {
    const errs = isDNS1035Label(String(s));
    if (errs.length) out.push(invalid(child(child(path, 'categories'), i), s, errs.join(',')));
  });
}

const columnTypes = ['boolean', 'date', 'integer', 'number', 'string'];

/** ValidateCustomResourceColumnDefinition. */
function validateColumn(col: Json, path: string, out: FieldErrorLike[]): void {
  if (!col.name) out.push(required(child(path, 'name')));
  if (!col.type) out.push(required(child(path, 'type'), `must be one of ${columnTypes.join(', ')}`));
  else if (!columnTypes.includes(col.type))
    out.push(notSupported(child(path, 'type'), col.type, columnTypes));
  if (!col.jsonPath) out.push(required(child(path, 'jsonPath')));
  else if (!String(col.jsonPath).startsWith('.'))
    out.push(invalid(child(path, 'jsonPath'), col.jsonPath, 'must be a simple json path starting with .'));
  if (col.priority !== undefined && col.priority < 0)
    out.push(invalid(child(path, 'priority'), col.priority, 'must be greater than or equal to 0'));
}

/** The scale subresource's paths (ValidateCustomResourceDefinitionSubresources). */
function validateScale(scale: Json, path: string, out: FieldErrorLike[]): void {
  const check = (field: string, prefixes: string[], needed: boolean): void => {
    const value = scale[field];
    if (!value) {
      if (needed) out.push(required(child(path, field)));
      return;
    }
    if (!prefixes.some((p) => String(value).startsWith(p)))
      out.push(
        invalid(
          child(path, field),
          value,
          `should be a json path under ${prefixes.map((p) => p.slice(0, -1)).join(' or ')}`,
        ),
      );
  };
  check('specReplicasPath', ['.spec.'], true);
  check('statusReplicasPath', ['.status.'], true);
  check('labelSelectorPath', ['.spec.', '.status.'], false);
}

/**
 * The structural rules Kubernetes checks at the root of a schema (type object) and on every
 * property (a type unless it preserves unknown fields or is an int-or-string).
 */
function validateStructuralRoot(schema: Json, path: string, out: FieldErrorLike[]): void {
  if (!schema.type) out.push(required(child(path, 'type'), 'must not be empty at the root'));
  else if (schema.type !== 'object')
    out.push(invalid(child(path, 'type'), schema.type, 'must be object at the root'));
  validateStructuralNode(schema, path, out);
}

function validateStructuralNode(schema: Json, path: string, out: FieldErrorLike[]): void {
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const [name, node] of Object.entries(props)) {
    const p = `${path}.properties[${name}]`;
    if (!isObject(node)) continue;
    if (
      !node.type &&
      node['x-kubernetes-int-or-string'] !== true &&
      node['x-kubernetes-preserve-unknown-fields'] !== true
    )
      out.push(required(`${p}.type`, 'must not be empty for specified object fields'));
    validateStructuralNode(node, p, out);
  }
  if (isObject(schema.items)) {
    const p = `${path}.items`;
    const node = schema.items;
    if (
      !node.type &&
      node['x-kubernetes-int-or-string'] !== true &&
      node['x-kubernetes-preserve-unknown-fields'] !== true
    )
      out.push(required(`${p}.type`, 'must not be empty for specified array items'));
    validateStructuralNode(node, p, out);
  }
  if (isObject(schema.additionalProperties))
    validateStructuralNode(schema.additionalProperties, `${path}.additionalProperties`, out);
}

/** Update rules: group, plural and scope cannot change (field is immutable). */
export function validateCustomResourceDefinitionUpdate(crd: Json, old: Json): FieldErrorLike[] {
  const out: FieldErrorLike[] = [];
  const immutable = (path: string, value: unknown, was: unknown): void => {
    if (value !== was) out.push(invalid(path, value, 'field is immutable'));
  };
  immutable('spec.group', crd.spec?.group, old.spec?.group);
  immutable('spec.names.plural', crd.spec?.names?.plural, old.spec?.names?.plural);
  immutable('spec.scope', crd.spec?.scope, old.spec?.scope);
  return out;
}
