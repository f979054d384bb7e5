import type { Static } from '@sinclair/typebox';
import { field, str, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { isDNS1123Label, isDNS1123Subdomain, regexError } from '../../util/names';
import {
  child,
  forbidden,
  invalid,
  notSupported,
  required,
  tooLong,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { validateTypedReference } from './ingress';

/** Where the object of an IngressClass's parameters lives. */
export const PARAMETERS_SCOPES = ['Cluster', 'Namespace'] as const;

/** The annotation that makes an IngressClass the default of Ingresses that name none. */
export const DEFAULT_INGRESS_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';

/** Kubernetes' limit on spec.controller. */
export const MAX_CONTROLLER_LENGTH = 250;

export const IngressClassParametersReferenceSchema = struct(
  'io.k8s.api.networking.v1.IngressClassParametersReference',
  {
    apiGroup: str({ proto: 1, description: 'API group of the object; empty for the core group.' }),
    kind: str({ proto: 2, description: 'Kind of the object.' }),
    name: str({ proto: 3, description: 'Name of the object.' }),
    scope: str({ proto: 4, default: 'Cluster', description: 'Cluster (default) or Namespace.' }),
    namespace: str({ proto: 5, description: 'Namespace of the object; only with scope Namespace.' }),
  },
);
type ParametersReference = Static<typeof IngressClassParametersReferenceSchema>;

/** The path part of a domain-prefixed path (Kubernetes' httpPathFmt). */
const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRegexp = new RegExp(`^${httpPathFmt}$`);

/** Kubernetes' IsDomainPrefixedPath: a DNS subdomain, '/', then a path. */
function validateController(controller: string, path: string): FieldError[] {
  if (controller === '') return [required(path)];
  const errs: FieldError[] = [];
  if (controller.length > MAX_CONTROLLER_LENGTH) errs.push(tooLong(path, controller, MAX_CONTROLLER_LENGTH));
  const slash = controller.indexOf('/');
  const host = controller.slice(0, Math.max(slash, 0));
  const rest = slash < 0 ? '' : controller.slice(slash + 1);
  if (host === '' || rest === '')
    return [...errs, invalid(path, controller, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  for (const msg of isDNS1123Subdomain(host)) errs.push(invalid(path, host, msg));
  if (!httpPathRegexp.test(rest))
    errs.push(invalid(path, rest, regexError('must be a valid path', httpPathFmt)));
  return errs;
}

function validateParameters(params: ParametersReference, path: string): FieldError[] {
  const errs = validateTypedReference(params, path);
  const scope = params.scope;
  const namespace = child(path, 'namespace');
  if (scope === undefined) return [...errs, required(child(path, 'scope'))];
  if (!(PARAMETERS_SCOPES as readonly string[]).includes(scope)) {
    errs.push(notSupported(child(path, 'scope'), scope, PARAMETERS_SCOPES));
  } else if (scope === 'Namespace') {
    if (params.namespace === undefined)
      errs.push(required(namespace, "`parameters.scope` is set to 'Namespace'"));
    else
      for (const msg of isDNS1123Label(params.namespace))
        errs.push(invalid(namespace, params.namespace, msg));
  } else if (params.namespace !== undefined) {
    errs.push(forbidden(namespace, "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

export const IngressClassSpecSchema = struct(
  'io.k8s.api.networking.v1.IngressClassSpec',
  {
    controller: str({
      proto: 1,
      omitZero: true,
      immutable: true,
      description:
        'The controller that serves Ingresses of this class, as a domain-prefixed path (acme.io/ingress).',
    }),
    parameters: field(IngressClassParametersReferenceSchema, {
      proto: 2,
      description: 'An object holding further configuration for the controller.',
    }),
  },
  {
    validate: (spec, path): FieldError[] => [
      ...validateController(spec.controller ?? '', child(path, 'controller')),
      ...(spec.parameters ? validateParameters(spec.parameters, child(path, 'parameters')) : []),
    ],
  },
);

export const IngressClassSchema = struct(
  'io.k8s.api.networking.v1.IngressClass',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(IngressClassSpecSchema, { proto: 2, description: 'Desired state of the class.' }),
  },
  { description: 'A class of Ingresses: the controller that serves them and its configuration.' },
);
export type IngressClass = Static<typeof IngressClassSchema>;

/** What the Parameters column shows: Kind[.group]/name, or <none>. */
export function ingressClassParameters(params: ParametersReference | undefined): string {
  if (!params) return '<none>';
  const kind =
    params.apiGroup !== undefined ? `${params.kind ?? ''}.${params.apiGroup}` : (params.kind ?? '');
  return `${kind}/${params.name ?? ''}`;
}

export const IngressClassKind = defineKind({
  group: 'networking.k8s.io',
  versions: ['v1'],
  kind: 'IngressClass',
  plural: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  schema: IngressClassSchema,
  columns: [
    nameColumn(),
    {
      name: 'Controller',
      type: 'string',
      description: 'The controller that serves Ingresses of this class.',
      cell: (c) => c.spec?.controller ?? '',
    },
    {
      name: 'Parameters',
      type: 'string',
      description: 'The object holding further configuration, <none> when there is none.',
      cell: (c) => ingressClassParameters(c.spec?.parameters),
    },
    ageColumn(),
  ],
});
