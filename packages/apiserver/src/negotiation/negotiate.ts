import { fieldErrors, protobufMediaType, protobufMediaTypeAlias, type IncludeObject } from '@orch/api';
import { statusErrors } from '../errors/status-error';
import { mediaTypeName, parseAccept, type MediaRange } from './media-type';

export type Format = 'json' | 'yaml' | 'protobuf';

/** What the response is written as. */
export interface Negotiated {
  format: Format;
  /** The media type named in the response's Content-Type (in the spelling the client asked for). */
  contentType: string;
  /** Set when a Table was asked for: the Table's group and version as spelled in Accept. */
  table?: { group: string; version: string };
  /**
   * Set when metadata-only objects were asked for: `kind` is the `as=` asked for, which must fit the
   * answer (PartialObjectMetadata for one object, PartialObjectMetadataList for a list; see
   * checkPartialKind).
   */
  partial?: { group: string; version: string; kind: 'PartialObjectMetadata' | 'PartialObjectMetadataList' };
}

/** The negotiated media type without its parameters (a Table's as=, g=, v=): `application/json`. */
export function mediaTypeOf(negotiated: Negotiated): string {
  return negotiated.contentType.split(';')[0]!;
}

const tableGroups = new Set(['meta.k8s.io', 'meta.orch.io']);
const tableVersions = new Set(['v1', 'v1beta1']);

const acceptedList =
  'application/json, application/yaml, application/vnd.orch.protobuf, application/vnd.kubernetes.protobuf';

function formatOf(name: string, protobuf: boolean): { format: Format; contentType: string } | undefined {
  switch (name) {
    case 'application/json':
    case 'application/*':
    case '*/*':
      return { format: 'json', contentType: 'application/json' };
    case 'application/yaml':
      return { format: 'yaml', contentType: 'application/yaml' };
    case protobufMediaType:
    case protobufMediaTypeAlias:
      return protobuf ? { format: 'protobuf', contentType: name } : undefined;
    default:
      return undefined;
  }
}

export interface NegotiateOptions {
  /** The response's object kind has a protobuf message. */
  protobuf: boolean;
  /** Tables may be served (GET of a resource). */
  table: boolean;
  /** Watch streams: YAML is not offered. */
  stream?: boolean;
}

/** Picks the response representation from an Accept header, or throws 406. */
export function negotiate(accept: string | undefined, options: NegotiateOptions): Negotiated {
  for (const r of parseAccept(accept)) {
    const chosen = pick(r, options);
    if (chosen) return chosen;
  }
  throw statusErrors.notAcceptable(`only the following media types are accepted: ${acceptedList}`);
}

function pick(r: MediaRange, options: NegotiateOptions): Negotiated | undefined {
  const as = r.params.as;
  const base = formatOf(mediaTypeName(r), options.protobuf || Boolean(as));
  if (!base) return undefined;
  if (options.stream && base.format === 'yaml') return undefined;
  if (!as) return base;
  const group = r.params.g ?? '';
  const version = r.params.v ?? '';
  if (!tableGroups.has(group) || !tableVersions.has(version)) return undefined;
  if (as === 'Table') {
    // as Kubernetes serves them: JSON or YAML (a Table has no protobuf message)
    if (!options.table || base.format === 'protobuf') return undefined;
    const params = `;as=Table;v=${version};g=${group}`;
    return { ...base, contentType: base.contentType + params, table: { group, version } };
  }
  if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') {
    return {
      ...base,
      contentType: `${base.contentType};as=${as};v=${version};g=${group}`,
      partial: { group, version, kind: as },
    };
  }
  return undefined;
}

/**
 * The Go type Kubernetes names (with %T) in a metadata-only refusal: the internal type of a built-in
 * kind (`*core.ConfigMap`, `*apps.DeploymentList`), unstructured for custom resources.
 */
export function internalGoType(
  decl: { group: string; kind: string; listKind?: string; customResource?: boolean },
  list: boolean,
): string {
  if (decl.customResource) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const pkg =
    decl.group === '' || decl.group === 'events.k8s.io'
      ? 'core'
      : decl.group === 'internal.apiserver.k8s.io'
        ? 'apiserverinternal'
        : decl.group.split('.')[0]!;
  return `*${pkg}.${list ? (decl.listKind ?? `${decl.kind}List`) : decl.kind}`;
}

/**
 * Kubernetes' asPartialObjectMetadata[List]: a 406 when the metadata-only kind asked for does not fit
 * the answer, PartialObjectMetadataList for one object or PartialObjectMetadata for a list.
 */
export function checkPartialKind(negotiated: Negotiated, list: boolean, goType: string): void {
  const kind = negotiated.partial?.kind;
  if (kind === 'PartialObjectMetadataList' && !list) {
    throw statusErrors.notAcceptable(
      `you requested PartialObjectMetadataList, but the requested object is not a list (${goType})`,
    );
  }
  if (kind === 'PartialObjectMetadata' && list) {
    throw statusErrors.notAcceptable(
      `you requested PartialObjectMetadata, but the requested object is a list (${goType})`,
    );
  }
}

/**
 * The includeObject of a Table answer (Kubernetes' TableOptions: empty means Metadata); any other value
 * is a 400, as Kubernetes' optionsForTransform answers ValidateTableOptions' error.
 */
export function tableIncludeObject(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject');
  if (v === null || v === '') return 'Metadata';
  if (v === 'None' || v === 'Object' || v === 'Metadata') return v;
  const error = fieldErrors.invalid('includeObject', v, "must be 'Metadata', 'Object', 'None', or empty");
  throw statusErrors.badRequest(
    `Unable to convert to Table as requested: ${fieldErrors.errorMessage(error)}`,
  );
}
