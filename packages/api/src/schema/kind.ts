import type { TObject, TSchema, Static } from '@sinclair/typebox';
import type { GateEnabled } from '../featuregates/compile-gated-fields';
import type { FieldErrorLike } from './fields';

/** A column of the Table representation (what `kubectl get` prints for the kind). */
export interface ColumnDeclaration<T = any> {
  name: string;
  /** OpenAPI type of the cell: string, integer, number, boolean, date. */
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  /** OpenAPI format hint; `name` marks the column holding the object's name. */
  format?: string;
  description: string;
  /** 0 for the default columns, 1 for the extra columns of `-o wide`. */
  priority?: 0 | 1;
  /** Computes the cell of one object. */
  cell: (obj: T, now: Date) => unknown;
}

/** A condition of a Table row (meta.k8s.io TableRowCondition). */
export interface TableRowConditionDeclaration {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** The scale subresource: where an object keeps its replica counts (autoscaling/v1 Scale). */
export interface ScaleDeclaration {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface SubresourceDeclaration {
  /** Kind of the subresource's body when it is not the parent kind (e.g. Scale, Binding, Eviction). */
  kind?: string;
  group?: string;
  version?: string;
  verbs: readonly string[];
}

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export const allVerbs: readonly Verb[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

/**
 * One kind, declared once. Everything else (types, validation, defaults, OpenAPI, protobuf, tables,
 * REST mapping, discovery) is derived from this.
 */
export interface KindDeclaration<S extends TObject = TObject> {
  /** API group; '' is the core group. */
  group: string;
  /** Versions served; the first is the preferred and storage version. */
  versions: readonly string[];
  kind: string;
  /** Lowercase plural: the resource segment of paths. */
  plural: string;
  singular: string;
  shortNames?: readonly string[];
  categories?: readonly string[];
  /** Namespaced or cluster scoped. */
  namespaced: boolean;
  /** The whole object: apiVersion, kind, metadata, spec, status (a struct). */
  schema: S;
  /** The list kind's name; `<Kind>List` unless said. */
  listKind?: string;
  /** Verbs served on the main resource; all verbs unless said (virtual kinds only create). */
  verbs?: readonly Verb[];
  /**
   * Whether the server keeps metadata.generation (1 on create, one more for each change outside
   * status and metadata). Unless said, kinds with a spec and a status subresource do; Kubernetes
   * 1.29 keeps none for pods, services, nodes, namespaces, volumes, claims and quotas.
   */
  generation?: boolean;
  /** Subresources: status, scale and the kind's own (binding, eviction, finalize, token, ...). */
  subresources?: {
    status?: true;
    scale?: ScaleDeclaration;
  } & Record<string, SubresourceDeclaration | ScaleDeclaration | true | undefined>;
  /** Fields usable in fieldSelector besides metadata.name and metadata.namespace. */
  selectableFields?: Record<string, (obj: Static<S>) => string | undefined>;
  /** Table columns; the default Name / Created At table when absent. */
  columns?: readonly ColumnDeclaration<Static<S>>[];
  /** The conditions of an object's table row (e.g. Completed for finished pods); none when absent. */
  rowConditions?: (obj: Static<S>) => readonly TableRowConditionDeclaration[];
  /** Warnings served for deprecated versions, by version. */
  deprecatedVersions?: Record<string, string>;
  /**
   * Rules on update beyond field immutability (old is the stored object); `enabled` tells the
   * server's feature gates when the caller knows them.
   */
  validateUpdate?: (obj: Static<S>, old: Static<S>, enabled?: GateEnabled) => FieldErrorLike[];
  /**
   * True when the kind has no protobuf message and is served as JSON (and YAML) only, as Kubernetes
   * serves apiextensions.k8s.io and custom resources to clients asking protobuf first.
   */
  jsonOnly?: boolean;
  /**
   * Declared by a CustomResourceDefinition: served with custom resource semantics (generation counts
   * every change but metadata's, status included unless it is a subresource).
   */
  customResource?: boolean;
  /**
   * True when objects of this kind are not stored: reviews and other virtual kinds (created), and
   * kinds whose objects are computed when read (get and list among their verbs).
   */
  virtual?: boolean;
  /**
   * Objects of this kind are deleted a while after their last write, like Kubernetes' events: how
   * long is the server setting this names (`event-ttl`: orch-apiserver's --event-ttl).
   */
  timeToLive?: 'event-ttl';
  /**
   * The rule for metadata.name (Kubernetes' ValidateNameFunc: messages for a bad name, `prefix` when
   * checking a generateName); an RFC 1123 subdomain unless said.
   */
  nameValidation?: (name: string, prefix: boolean) => readonly string[];
}

/** A declared kind with its object type attached. */
export type Kind<S extends TObject = TObject> = KindDeclaration<S> & { readonly __type?: Static<S> };

export type ObjectOf<K> = K extends KindDeclaration<infer S> ? Static<S> : never;

export function defineKind<S extends TObject>(declaration: KindDeclaration<S>): Kind<S> {
  return declaration;
}

/** Whether the kind has a list kind: stored kinds, and virtual kinds that are listed (computed when read). */
export function hasListKind(decl: KindDeclaration<any>): boolean {
  return !decl.virtual || (decl.verbs ?? []).includes('list');
}

/** The apiVersion string of a group and version (`v1` for the core group). */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

export type { TSchema };
