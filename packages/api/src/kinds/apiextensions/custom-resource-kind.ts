import type { TObject } from '@sinclair/typebox';
import type { ColumnDeclaration, KindDeclaration, ScaleDeclaration } from '../../schema/kind';
import { humanDuration, nameColumn } from '../columns';
import type { CustomResourceColumnDefinition, CustomResourceDefinition } from './custom-resource-definition';
import { getAtJSONPath } from './json-path';
import { customResourceSchema } from './openapi-schema-node';

const versionPattern = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Kubernetes' version priority (CompareKubeAwareVersionStrings): GA before beta before alpha, higher
 * numbers first, then versions that do not look like Kubernetes versions, alphabetically.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ma = versionPattern.exec(a);
  const mb = versionPattern.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const level = (m: RegExpExecArray): number => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (level(ma) !== level(mb)) return level(mb) - level(ma);
  if (Number(ma[1]) !== Number(mb[1])) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/** A cell of a printer column: the value at its path, dates as ages, lists as Go prints them. */
function cellOf(col: CustomResourceColumnDefinition, obj: unknown, now: Date): unknown {
  const value = getAtJSONPath(obj, col.jsonPath);
  if (value === undefined || value === null) return null;
  if (col.type === 'date') return typeof value === 'string' ? humanDuration(value, now) : null;
  if (col.type === 'integer') return typeof value === 'number' ? Math.trunc(value) : null;
  if (col.type === 'number') return typeof value === 'number' ? value : null;
  if (col.type === 'boolean') return typeof value === 'boolean' ? value : null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The columns of a version: Name and its printer columns, Name and Age when it has none. */
function columnsOf(columns: readonly CustomResourceColumnDefinition[] | undefined): ColumnDeclaration[] {
  const declared = columns?.length
    ? columns
    : [
        {
          name: 'Age',
          type: 'date',
          jsonPath: '.metadata.creationTimestamp',
          description:
            'CreationTimestamp is a timestamp representing the server time when this object was created.',
        },
      ];
  return [
    nameColumn() as ColumnDeclaration,
    ...declared.map((col): ColumnDeclaration => ({
      name: col.name,
      type: col.type as ColumnDeclaration['type'],
      ...(col.format ? { format: col.format } : {}),
      description: col.description ?? '',
      priority: (col.priority ?? 0) > 0 ? 1 : 0,
      cell: (obj, now) => cellOf(col, obj, now),
    })),
  ];
}

/**
 * The kind a CustomResourceDefinition declares, as every built-in kind is declared: its served
 * versions (Kubernetes' priority order, so the first is the preferred one), names, scope,
 * subresources and table from the storage version, and the object schema of the storage version's
 * openAPIV3Schema. Conversion is None: versions differ only in apiVersion. Undefined when no version
 * is served.
 */
export function customResourceKind(crd: CustomResourceDefinition): KindDeclaration<TObject> | undefined {
  const spec = crd.spec;
  const names = crd.status?.acceptedNames?.plural ? crd.status.acceptedNames : spec.names;
  const served = spec.versions.filter((v) => v.served).map((v) => v.name);
  if (!served.length) return undefined;
  const versions = [...served].sort(compareKubeAwareVersions);
  const storage = spec.versions.find((v) => v.storage) ?? spec.versions[0]!;
  const subresources: NonNullable<KindDeclaration['subresources']> = {};
  if (storage.subresources?.status) subresources.status = true;
  const scale = storage.subresources?.scale;
  if (scale) {
    const declared: ScaleDeclaration = {
      specReplicasPath: scale.specReplicasPath,
      statusReplicasPath: scale.statusReplicasPath,
    };
    if (scale.labelSelectorPath) declared.labelSelectorPath = scale.labelSelectorPath;
    subresources.scale = declared;
  }
  const deprecatedVersions: Record<string, string> = {};
  for (const v of spec.versions) {
    if (v.deprecated)
      deprecatedVersions[v.name] =
        v.deprecationWarning ?? `${spec.group}/${v.name} ${names.kind} is deprecated`;
  }
  return {
    group: spec.group,
    versions,
    kind: names.kind,
    plural: names.plural,
    singular: names.singular ?? names.kind.toLowerCase(),
    ...(names.shortNames?.length ? { shortNames: [...names.shortNames] } : {}),
    ...(names.categories?.length ? { categories: [...names.categories] } : {}),
    listKind: names.listKind ?? `${names.kind}List`,
    namespaced: spec.scope === 'Namespaced',
    schema: customResourceSchema(
      storage.schema?.openAPIV3Schema,
      crd.metadata?.name ?? '',
      spec.group,
      storage.name,
      names.kind,
    ) as TObject,
    ...(Object.keys(subresources).length ? { subresources } : {}),
    ...(Object.keys(deprecatedVersions).length ? { deprecatedVersions } : {}),
    columns: columnsOf(storage.additionalPrinterColumns),
    jsonOnly: true,
    customResource: true,
  };
}
