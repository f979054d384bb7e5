import type { ColumnDeclaration, KindDeclaration } from '../schema/kind';
import type { Table, TableColumnDefinition, TableRow } from '../meta/status';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  /** What each row carries besides its cells; Kubernetes' default is Metadata. */
  includeObject?: IncludeObject;
  /** The Table's apiVersion, in the spelling the client asked for (meta.k8s.io/v1, meta.orch.io/v1beta1, ...). */
  apiVersion?: string;
  /** The list metadata (resourceVersion, continue, remainingItemCount) of the listing. */
  listMeta?: Table['metadata'];
  now?: Date;
}

interface Meta {
  metadata?: { name?: string; creationTimestamp?: string; [k: string]: unknown };
  [k: string]: unknown;
}

/** The two columns of kinds without a table of their own. */
const defaultColumns: readonly ColumnDeclaration<Meta>[] = [
  {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: 'Name must be unique within a namespace.',
    cell: (obj) => obj.metadata?.name ?? '',
  },
  {
    name: 'Created At',
    type: 'date',
    description:
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
    cell: (obj) => obj.metadata?.creationTimestamp ?? '',
  },
];

/** The columns a kind is printed with (its own or the default Name / Created At). */
export function columnsOf(decl: KindDeclaration<any>): readonly ColumnDeclaration<any>[] {
  return decl.columns?.length ? decl.columns : defaultColumns;
}

export function columnDefinitions(decl: KindDeclaration<any>): TableColumnDefinition[] {
  return columnsOf(decl).map((c) => ({
    name: c.name,
    type: c.type,
    format: c.format ?? '',
    description: c.description,
    priority: c.priority ?? 0,
  }));
}

/** One row of a Table for one object. */
export function tableRow(decl: KindDeclaration<any>, obj: Meta, options: TableOptions = {}): TableRow {
  const now = options.now ?? new Date();
  const row: TableRow = { cells: columnsOf(decl).map((c) => c.cell(obj, now)) };
  const conditions = decl.rowConditions?.(obj) ?? [];
  if (conditions.length) row.conditions = conditions.map((c) => ({ ...c }));
  const include = options.includeObject ?? 'Metadata';
  if (include === 'Object') row.object = obj;
  else if (include === 'Metadata') row.object = partialObjectMetadata(obj, options.apiVersion);
  return row;
}

/** The Table of a list of objects (or of a single object, as a list of one). */
export function toTable(
  decl: KindDeclaration<any>,
  objects: readonly Meta[],
  options: TableOptions = {},
): Table {
  const now = options.now ?? new Date();
  return {
    kind: 'Table',
    apiVersion: options.apiVersion ?? 'meta.k8s.io/v1',
    metadata: options.listMeta ?? {},
    columnDefinitions: columnDefinitions(decl),
    rows: objects.map((o) => tableRow(decl, o, { ...options, now })),
  };
}

/** The object's metadata as meta's PartialObjectMetadata, in the Table's group and version. */
function partialObjectMetadata(obj: Meta, tableApiVersion = 'meta.k8s.io/v1'): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: tableApiVersion, metadata: obj.metadata ?? {} };
}
