/** What a request is about, parsed from its method and path as Kubernetes' RequestInfoFactory does. */
export interface RequestInfo {
  /** True for resource requests; false for /version, /healthz, discovery and other non-resource paths. */
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; lowercase HTTP method otherwise. */
  verb: string;
  /** 'api' (core group) or 'apis'. */
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** True when the deprecated /watch/ path form was used. */
  deprecatedWatchPath: boolean;
  parts: string[];
}

const namespaceSubresources = new Set(['status', 'finalize']);

function isWatchParam(query: URLSearchParams): boolean {
  const w = query.get('watch');
  return w !== null && w !== '' && w !== '0' && w.toLowerCase() !== 'false';
}

/** Parses a request; never throws. */
const mutatingVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** Whether a request of this verb writes (Kubernetes' mutating verbs). */
export function isMutatingVerb(verb: string): boolean {
  return mutatingVerbs.has(verb);
}

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    deprecatedWatchPath: false,
    parts: [],
  };
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return info;
  let parts = trimmed.split('/').map(safeDecode);
  if (parts[0] !== 'api' && parts[0] !== 'apis') return info;
  info.apiPrefix = parts[0]!;
  parts = parts.slice(1);
  if (info.apiPrefix === 'apis') {
    if (parts.length < 2) return info; // /apis or /apis/<group>: discovery
    info.apiGroup = parts[0]!;
    parts = parts.slice(1);
  } else if (parts.length < 1) {
    return info; // /api
  }
  info.apiVersion = parts[0]!;
  parts = parts.slice(1);
  if (parts.length === 0) return info; // group/version discovery
  info.isResourceRequest = true;

  switch (method.toUpperCase()) {
    case 'POST':
      info.verb = 'create';
      break;
    case 'GET':
    case 'HEAD':
      info.verb = 'get';
      break;
    case 'PUT':
      info.verb = 'update';
      break;
    case 'PATCH':
      info.verb = 'patch';
      break;
    case 'DELETE':
      info.verb = 'delete';
      break;
    default:
      info.verb = method.toLowerCase();
  }
  if (parts[0] === 'watch') {
    info.deprecatedWatchPath = true;
    parts = parts.slice(1);
    if (info.verb === 'get') info.verb = 'watch';
  }

  // namespaces/<ns>/<resource>/... unless the request is about a namespace itself (or its status/finalize)
  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1]!;
    if (parts.length > 2 && !namespaceSubresources.has(parts[2]!)) parts = parts.slice(2);
  }
  info.parts = parts;
  if (parts.length >= 3) info.subresource = parts[2]!;
  if (parts.length >= 2) info.name = parts[1]!;
  info.resource = parts[0]!;

  if (info.name === '' && info.verb === 'get') info.verb = isWatchParam(query) ? 'watch' : 'list';
  if (info.name === '' && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
