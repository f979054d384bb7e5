import { apiVersionDescription, kindDescription, ListMetaSchema } from '../meta/object-meta';
import { DeleteOptionsSchema, StatusSchema, WatchEventSchema } from '../meta/status';
import { OrchKeyword } from '../schema/fields';
import { hasListKind, type KindDeclaration } from '../schema/kind';
import type { RESTMapping } from '../restmapping/rest-mapper';
import { supportsStrategicMerge } from '../patch/strategic-merge-patch';
import { SchemaConverter, type OpenAPIDialect, type OpenAPISchema } from './schema-to-openapi';

export interface OpenAPIInfo {
  title: string;
  version: string;
}

export interface OpenAPIOptions {
  /** PATCH operations consume apply patches (the server serves server-side apply). Default true. */
  applyPatch?: boolean;
}

const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

interface Param {
  name: string;
  in: 'query' | 'path' | 'body';
  type?: string;
  description: string;
  uniqueItems?: boolean;
  required?: boolean;
}

const q = (name: string, type: string, description: string): Param => ({
  name,
  in: 'query',
  type,
  description,
  uniqueItems: true,
});

/** Query parameters of doc 1, by operation. */
const params = {
  pretty: q('pretty', 'string', "If 'true', then the output is pretty printed."),
  dryRun: q(
    'dryRun',
    'string',
    'When present, indicates that modifications should not be persisted. Valid value: All.',
  ),
  fieldManager: q(
    'fieldManager',
    'string',
    'Name of the actor making the change; at most 128 printable characters.',
  ),
  fieldValidation: q(
    'fieldValidation',
    'string',
    'How to handle unknown or duplicate fields in the request body: Ignore, Warn or Strict.',
  ),
  force: q('force', 'boolean', 'Force an apply: re-acquire conflicting fields owned by other managers.'),
  gracePeriodSeconds: q('gracePeriodSeconds', 'integer', 'Seconds before the object should be deleted.'),
  orphanDependents: q('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy.'),
  propagationPolicy: q('propagationPolicy', 'string', 'Orphan, Background or Foreground garbage collection.'),
  allowWatchBookmarks: q('allowWatchBookmarks', 'boolean', 'Request BOOKMARK watch events.'),
  continue: q('continue', 'string', 'Continue token of a previous chunked list.'),
  fieldSelector: q('fieldSelector', 'string', 'Restrict results by their fields.'),
  labelSelector: q('labelSelector', 'string', 'Restrict results by their labels.'),
  limit: q('limit', 'integer', 'Maximum number of items in one chunk.'),
  resourceVersion: q(
    'resourceVersion',
    'string',
    'Constrains the resource versions a request may be served from.',
  ),
  resourceVersionMatch: q('resourceVersionMatch', 'string', 'How resourceVersion applies to list calls.'),
  timeoutSeconds: q('timeoutSeconds', 'integer', 'Timeout of the list or watch call.'),
  watch: q('watch', 'boolean', 'Watch for changes to the described resources.'),
};
const listParams = [
  params.allowWatchBookmarks,
  params.continue,
  params.fieldSelector,
  params.labelSelector,
  params.limit,
  params.resourceVersion,
  params.resourceVersionMatch,
  params.timeoutSeconds,
  params.watch,
];
const deleteParams = [
  params.dryRun,
  params.gracePeriodSeconds,
  params.orphanDependents,
  params.propagationPolicy,
];
const writeParams = [params.dryRun, params.fieldManager, params.fieldValidation];
const pathParam = (name: string, description: string): Param => ({
  name,
  in: 'path',
  type: 'string',
  description,
  required: true,
  uniqueItems: true,
});

function pathPrefix(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

function operationGroup(group: string, version: string): string {
  const g =
    group === ''
      ? 'core'
      : group.replace(/\.k8s\.io$/, '').replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());
  return `${g}${version.charAt(0).toUpperCase()}${version.slice(1)}`;
}

/** Builds one OpenAPI document (v2 for the whole API, v3 for one group/version) from REST mappings. */
export class OpenAPIBuilder {
  private readonly converter: SchemaConverter;
  private readonly paths: Record<string, Record<string, unknown>> = {};
  private readonly patchTypes: string[];

  constructor(
    private readonly dialect: OpenAPIDialect,
    options: OpenAPIOptions = {},
  ) {
    this.patchTypes =
      options.applyPatch === false
        ? patchTypes.filter((t) => t !== 'application/apply-patch+yaml')
        : patchTypes;
    this.converter = new SchemaConverter(dialect);
    for (const s of [StatusSchema, DeleteOptionsSchema, WatchEventSchema, ListMetaSchema])
      this.converter.define(s);
  }

  /** Adds a resource's definitions and paths. */
  add(mapping: RESTMapping): void {
    const decl = mapping.declaration;
    const { group, version, kind } = mapping.gvk;
    const rootName = this.defineKind(decl, group, version);
    if (decl.virtual && !(decl.verbs ?? []).length) return;
    const listName = `${rootName}List`;
    if (hasListKind(decl)) {
      this.converter.definitions[listName] = {
        description: `${decl.listKind ?? `${kind}List`} is a list of ${kind}.`,
        type: 'object',
        required: ['items'],
        properties: {
          apiVersion: { type: 'string', description: apiVersionDescription },
          items: {
            type: 'array',
            items: this.converter.ref(rootName),
            description: `List of ${decl.plural}.`,
          },
          kind: { type: 'string', description: kindDescription },
          metadata: this.converter.ref(
            ListMetaSchema[OrchKeyword.name as keyof typeof ListMetaSchema] as string,
            {
              description: 'Standard list metadata.',
            },
          ),
        },
        'x-kubernetes-group-version-kind': [{ group, kind: decl.listKind ?? `${kind}List`, version }],
      };
    }
    this.addPaths(mapping, rootName, listName);
  }

  private defineKind(decl: KindDeclaration<any>, group: string, version: string): string {
    const name = this.converter.define(decl.schema);
    const def = this.converter.definitions[name]!;
    const gvks = (def['x-kubernetes-group-version-kind'] as unknown[] | undefined) ?? [];
    if (!gvks.some((g) => JSON.stringify(g) === JSON.stringify({ group, kind: decl.kind, version }))) {
      gvks.push({ group, kind: decl.kind, version });
    }
    def['x-kubernetes-group-version-kind'] = gvks;
    return name;
  }

  private addPaths(mapping: RESTMapping, rootName: string, listName: string): void {
    const decl = mapping.declaration;
    const { group, version, kind } = mapping.gvk;
    const verbs = new Set(
      decl.verbs ?? ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    );
    const prefix = pathPrefix(group, version);
    const opGroup = operationGroup(group, version);
    const gvk = { group, kind, version };
    const nsPart = decl.namespaced ? '/namespaces/{namespace}' : '';
    // kinds without strategic merge metadata (custom resources) do not list it: kubectl then merge-patches
    const patchTypes = supportsStrategicMerge(decl.schema)
      ? this.patchTypes
      : this.patchTypes.filter((t) => t !== 'application/strategic-merge-patch+json');
    const nsParams = decl.namespaced
      ? [pathParam('namespace', 'object name and auth scope, such as for teams and projects')]
      : [];
    const scopeWord = decl.namespaced ? 'Namespaced' : '';
    const ref = (name: string): OpenAPISchema => this.converter.ref(name);
    const statusRef = ref('io.k8s.apimachinery.pkg.apis.meta.v1.Status');
    const op = (
      action: string,
      opId: string,
      description: string,
      response: OpenAPISchema,
      extraParams: Param[],
      body?: OpenAPISchema,
      consumes?: string[],
    ): Record<string, unknown> => {
      const o: Record<string, unknown> = {
        description,
        operationId: `${action === 'deletecollection' ? 'deleteCollection' : action}${opGroup}${scopeWord}${opId}`,
        tags: [opGroup],
        'x-kubernetes-action': action,
        'x-kubernetes-group-version-kind': gvk,
      };
      const ps: Param[] = [...extraParams];
      if (this.dialect === 'v2') {
        if (body)
          ps.unshift({
            name: 'body',
            in: 'body',
            required: true,
            description: '',
            ...{ schema: body },
          } as Param);
        o.parameters = ps;
        o.consumes = consumes ?? ['*/*'];
        o.produces = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
        o.schemes = ['https'];
        o.responses = {
          '200': { description: 'OK', schema: response },
          '401': { description: 'Unauthorized' },
        };
      } else {
        o.parameters = ps.map(({ type, ...rest }) => ({ ...rest, schema: { type } }));
        if (body) {
          o.requestBody = {
            content: Object.fromEntries((consumes ?? ['*/*']).map((c) => [c, { schema: body }])),
            required: true,
          };
        }
        o.responses = {
          '200': {
            description: 'OK',
            content: Object.fromEntries(
              ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'].map((c) => [
                c,
                { schema: response },
              ]),
            ),
          },
          '401': { description: 'Unauthorized' },
        };
      }
      return o;
    };
    const collection: Record<string, unknown> = { parameters: [...nsParams, params.pretty] };
    if (verbs.has('list'))
      collection.get = op('list', kind, `list or watch objects of kind ${kind}`, ref(listName), listParams);
    if (verbs.has('create'))
      collection.post = op('post', kind, `create a ${kind}`, ref(rootName), writeParams, ref(rootName));
    if (verbs.has('deletecollection'))
      collection.delete = op('deletecollection', kind, `delete collection of ${kind}`, statusRef, [
        ...deleteParams,
        ...listParams,
      ]);
    this.paths[`${prefix}${nsPart}/${decl.plural}`] = collection;
    if (decl.namespaced && verbs.has('list')) {
      this.paths[`${prefix}/${decl.plural}`] = {
        parameters: [params.pretty, ...listParams],
        get: op(
          'list',
          `${kind}ForAllNamespaces`,
          `list or watch objects of kind ${kind}`,
          ref(listName),
          [],
        ),
      };
    }
    if (!verbs.has('get')) return;
    const nameParam = pathParam('name', `name of the ${kind}`);
    const item: Record<string, unknown> = { parameters: [nameParam, ...nsParams, params.pretty] };
    item.get = op('get', kind, `read the specified ${kind}`, ref(rootName), []);
    if (verbs.has('update'))
      item.put = op('put', kind, `replace the specified ${kind}`, ref(rootName), writeParams, ref(rootName));
    if (verbs.has('patch'))
      item.patch = op(
        'patch',
        kind,
        `partially update the specified ${kind}`,
        ref(rootName),
        [...writeParams, params.force],
        { type: 'object' },
        patchTypes,
      );
    if (verbs.has('delete'))
      item.delete = op(
        'delete',
        kind,
        `delete a ${kind}`,
        statusRef,
        deleteParams,
        ref('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions'),
      );
    this.paths[`${prefix}${nsPart}/${decl.plural}/{name}`] = item;
    if (decl.subresources?.status) {
      this.paths[`${prefix}${nsPart}/${decl.plural}/{name}/status`] = {
        parameters: [nameParam, ...nsParams, params.pretty],
        get: op('get', `${kind}Status`, `read status of the specified ${kind}`, ref(rootName), []),
        put: op(
          'put',
          `${kind}Status`,
          `replace status of the specified ${kind}`,
          ref(rootName),
          writeParams,
          ref(rootName),
        ),
        patch: op(
          'patch',
          `${kind}Status`,
          `partially update status of the specified ${kind}`,
          ref(rootName),
          [...writeParams, params.force],
          { type: 'object' },
          patchTypes,
        ),
      };
    }
    if (verbs.has('watch')) {
      const watchEvent = ref('io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent');
      this.paths[`${prefix}/watch${nsPart}/${decl.plural}`] = {
        parameters: [...nsParams, params.pretty, ...listParams],
        get: op('watch', `${kind}List`, `watch individual changes to a list of ${kind}`, watchEvent, []),
      };
      this.paths[`${prefix}/watch${nsPart}/${decl.plural}/{name}`] = {
        parameters: [nameParam, ...nsParams, params.pretty, ...listParams],
        get: op('watch', kind, `watch changes to an object of kind ${kind}`, watchEvent, []),
      };
    }
  }

  /** The finished document. */
  build(info: OpenAPIInfo): Record<string, unknown> {
    if (this.dialect === 'v2') {
      return {
        swagger: '2.0',
        info,
        paths: this.paths,
        definitions: this.converter.definitions,
        securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header' } },
        security: [{ BearerToken: [] }],
      };
    }
    return {
      openapi: '3.0.0',
      info,
      paths: this.paths,
      components: {
        schemas: this.converter.definitions,
        securitySchemes: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header' } },
      },
    };
  }
}

/** The OpenAPI document of `mappings` in a dialect. */
function buildOpenAPI(
  dialect: OpenAPIDialect,
  mappings: readonly RESTMapping[],
  info: OpenAPIInfo,
  options?: OpenAPIOptions,
): Record<string, unknown> {
  const b = new OpenAPIBuilder(dialect, options);
  for (const m of mappings) b.add(m);
  return b.build(info);
}

/** The OpenAPI v2 document of every served resource. */
export function buildOpenAPIv2(
  mappings: readonly RESTMapping[],
  info: OpenAPIInfo,
  options?: OpenAPIOptions,
): Record<string, unknown> {
  return buildOpenAPI('v2', mappings, info, options);
}

/** The OpenAPI v3 document of one group/version (`api/v1`, `apis/apps/v1`). */
export function buildOpenAPIv3(
  mappings: readonly RESTMapping[],
  info: OpenAPIInfo,
  options?: OpenAPIOptions,
): Record<string, unknown> {
  return buildOpenAPI('v3', mappings, info, options);
}

/** The `/openapi/v3` path key of a group/version: `api/v1` or `apis/apps/v1`. */
export function openAPIv3PathOf(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}
