import type { Static } from '@sinclair/typebox';
import { field, int32, list, str, struct, bool, int64, rawExtension } from '../schema/fields';
import { ListMetaSchema } from './object-meta';

const meta = (name: string): string => `io.k8s.apimachinery.pkg.apis.meta.v1.${name}`;

export const StatusCauseSchema = struct(meta('StatusCause'), {
  reason: str({ proto: 1 }),
  message: str({ proto: 2 }),
  field: str({ proto: 3 }),
});
export type StatusCause = Static<typeof StatusCauseSchema>;

export const StatusDetailsSchema = struct(meta('StatusDetails'), {
  name: str({ proto: 1 }),
  group: str({ proto: 2 }),
  kind: str({ proto: 3 }),
  uid: str({ proto: 6 }),
  causes: list(StatusCauseSchema, { proto: 4, listType: 'atomic' }),
  retryAfterSeconds: int32({ proto: 5 }),
});
export type StatusDetails = Static<typeof StatusDetailsSchema>;

export const StatusSchema = struct(meta('Status'), {
  apiVersion: str(),
  kind: str(),
  metadata: field(ListMetaSchema, { proto: 1 }),
  status: str({ proto: 2, description: 'Success or Failure.' }),
  message: str({ proto: 3 }),
  reason: str({ proto: 4 }),
  details: field(StatusDetailsSchema, { proto: 5 }),
  code: int32({ proto: 6 }),
});
export type Status = Static<typeof StatusSchema>;

export const PreconditionsSchema = struct(meta('Preconditions'), {
  uid: str({ proto: 1 }),
  resourceVersion: str({ proto: 2 }),
});

export const DeleteOptionsSchema = struct(meta('DeleteOptions'), {
  apiVersion: str(),
  kind: str(),
  gracePeriodSeconds: int64({ proto: 1, minimum: 0 }),
  preconditions: field(PreconditionsSchema, { proto: 2 }),
  orphanDependents: bool({ proto: 3 }),
  propagationPolicy: str({ proto: 4, enum: ['Orphan', 'Background', 'Foreground'] }),
  dryRun: list(str({ enum: ['All'] }), { proto: 5, listType: 'atomic' }),
});
export type DeleteOptions = Static<typeof DeleteOptionsSchema>;

export const WatchEventSchema = struct(meta('WatchEvent'), {
  type: str({ proto: 1, enum: ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'] }),
  object: rawExtension({ proto: 2 }),
});
export type WatchEvent = Static<typeof WatchEventSchema>;

export const TableColumnDefinitionSchema = struct(meta('TableColumnDefinition'), {
  name: str({ proto: 1 }),
  type: str({ proto: 2 }),
  format: str({ proto: 3 }),
  description: str({ proto: 4 }),
  priority: int32({ proto: 5 }),
});
export type TableColumnDefinition = Static<typeof TableColumnDefinitionSchema>;

export const TableRowConditionSchema = struct(meta('TableRowCondition'), {
  type: str({ proto: 1 }),
  status: str({ proto: 2 }),
  reason: str({ proto: 3 }),
  message: str({ proto: 4 }),
});

export const TableRowSchema = struct(meta('TableRow'), {
  cells: list(rawExtension(), { proto: 1, listType: 'atomic' }),
  conditions: list(TableRowConditionSchema, { proto: 2, listType: 'atomic' }),
  object: rawExtension({ proto: 3 }),
});
export type TableRow = Static<typeof TableRowSchema>;

export const TableSchema = struct(meta('Table'), {
  apiVersion: str(),
  kind: str(),
  metadata: field(ListMetaSchema, { proto: 1 }),
  columnDefinitions: list(TableColumnDefinitionSchema, { proto: 2, listType: 'atomic' }),
  rows: list(TableRowSchema, { proto: 3, listType: 'atomic' }),
});
export type Table = Static<typeof TableSchema>;

export const TypeMetaSchema = struct('io.k8s.apimachinery.pkg.runtime.TypeMeta', {
  apiVersion: str({ proto: 1 }),
  kind: str({ proto: 2 }),
});
