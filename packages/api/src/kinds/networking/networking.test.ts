import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword } from '../../schema/fields';
import type { KindDeclaration } from '../../schema/kind';
import { compileKind } from '../../validation';
import { errorMessage } from '../../validation/field-error';
import {
  HTTPIngressPathSchema,
  ingressAddress,
  IngressBackendSchema,
  IngressClassKind,
  IngressClassParametersReferenceSchema,
  ingressClassParameters,
  IngressClassSchema,
  ingressHosts,
  IngressKind,
  IngressRuleSchema,
  IngressSchema,
  IngressSpecSchema,
  NetworkPolicyKind,
  NetworkPolicyPeerSchema,
  NetworkPolicyPortSchema,
  NetworkPolicySpecSchema,
  networkingKinds,
  type NetworkPolicy,
  type Ingress,
  type IngressClass,
} from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const ingresses = compileKind(IngressKind as KindDeclaration<any>);
const classes = compileKind(IngressClassKind as KindDeclaration<any>);
const messages = (errors: readonly unknown[]): string[] => errors.map((e) => errorMessage(e as never));

const service = (name: string, port: { name?: string; number?: number }) => ({ service: { name, port } });
const ingress = (spec: Ingress['spec']): Ingress => ({
  metadata: { name: 'web', namespace: 'default' },
  spec,
});
const prefix = (path: string, backend: object = service('web', { number: 80 })) => ({
  path,
  pathType: 'Prefix',
  backend,
});
const validateIngress = (spec: Ingress['spec']): string[] => messages(ingresses.validate(ingress(spec)));
const validateClass = (spec: IngressClass['spec']): string[] => {
  const obj = { metadata: { name: 'nginx' }, spec };
  classes.default(obj);
  return messages(classes.validate(obj));
};

describe('networking.k8s.io/v1', () => {
  it('serves Ingress and IngressClass as Kubernetes does', () => {
    expect(networkingKinds).toEqual([IngressKind, IngressClassKind, NetworkPolicyKind]);
    expect(NetworkPolicyKind).toMatchObject({
      plural: 'networkpolicies',
      shortNames: ['netpol'],
      namespaced: true,
    });
    expect(IngressKind).toMatchObject({
      group: 'networking.k8s.io',
      versions: ['v1'],
      plural: 'ingresses',
      shortNames: ['ing'],
      namespaced: true,
      subresources: { status: true },
    });
    expect(IngressClassKind).toMatchObject({ plural: 'ingressclasses', namespaced: false });
  });

  it('has Kubernetes protobuf numbers', () => {
    expect(protos(IngressSchema)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: 1,
      spec: 2,
      status: 3,
    });
    expect(protos(IngressSpecSchema)).toEqual({ ingressClassName: 4, defaultBackend: 1, tls: 2, rules: 3 });
    expect(protos(IngressBackendSchema)).toEqual({ service: 4, resource: 3 });
    expect(protos(HTTPIngressPathSchema)).toEqual({ path: 1, pathType: 3, backend: 2 });
    // http travels in the embedded IngressRuleValue message, field 2 of the rule
    expect(protos(IngressRuleSchema)).toEqual({ host: 1, http: 1 });
    expect(
      (IngressRuleSchema.properties.http as unknown as Record<string, unknown>)[OrchKeyword.protoEmbedded],
    ).toMatchObject({ field: 'ingressRuleValue', proto: 2 });
    expect(protos(IngressClassSchema)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: 1,
      spec: 2,
    });
    expect(protos(IngressClassParametersReferenceSchema)).toEqual({
      apiGroup: 1,
      kind: 2,
      name: 3,
      scope: 4,
      namespace: 5,
    });
  });

  describe('Ingress validation', () => {
    it('accepts rules with every path type, a resource backend and TLS with wildcard hosts', () => {
      expect(
        validateIngress({
          ingressClassName: 'nginx',
          defaultBackend: { resource: { apiGroup: 'example.com', kind: 'Bucket', name: 'static' } },
          tls: [{ hosts: ['a.example.com', '*.example.com'], secretName: 'tls' }],
          rules: [
            { host: '*.example.com', http: { paths: [prefix('/')] } },
            {
              http: { paths: [{ path: '/x', pathType: 'Exact', backend: service('api', { name: 'http' }) }] },
            },
            {
              http: { paths: [{ pathType: 'ImplementationSpecific', backend: service('w', { number: 1 }) }] },
            },
          ],
        }),
      ).toEqual([]);
    });

    it('needs rules or a default backend', () => {
      expect(validateIngress({})).toEqual([
        'spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified',
      ]);
      expect(validateIngress({ rules: [] })).toEqual([
        'spec: Invalid value: []networking.IngressRule{}: either `defaultBackend` or `rules` must be specified',
      ]);
    });

    it('checks backends as Kubernetes does', () => {
      const backend = (b: object) => validateIngress({ defaultBackend: b });
      expect(backend({})).toEqual([
        'spec.defaultBackend: Invalid value: "": resource or service backend is required',
      ]);
      expect(backend({ ...service('web', { number: 80 }), resource: { kind: 'K', name: 'n' } })).toEqual([
        'spec.defaultBackend: Invalid value: "": cannot set both resource and service backends',
      ]);
      expect(backend(service('web', { name: 'http', number: 80 }))).toEqual([
        'spec.defaultBackend: Invalid value: "": cannot set both port name & port number',
      ]);
      expect(backend(service('web', {}))).toEqual([
        'spec.defaultBackend: Required value: port name or number is required',
      ]);
      expect(backend(service('Web', { number: 70000 }))).toEqual([
        expect.stringMatching(/^spec\.defaultBackend\.service\.name: Invalid value: "Web": a DNS-1035 label/),
        'spec.defaultBackend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ]);
      expect(backend({ resource: { name: 'a/b' } })).toEqual([
        'spec.defaultBackend.resource.kind: Required value: kind is required',
        `spec.defaultBackend.resource.name: Invalid value: "a/b": may not contain '/'`,
      ]);
    });

    it('checks paths by their type', () => {
      const paths = (...p: object[]) => validateIngress({ rules: [{ http: { paths: p as never } }] });
      const at = 'spec.rules[0].http.paths[0]';
      expect(paths({ path: '/', backend: service('web', { number: 80 }) })).toEqual([
        `${at}.pathType: Required value: pathType must be specified`,
      ]);
      expect(paths({ ...prefix('/'), pathType: 'Regex' })).toEqual([
        `${at}.pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"`,
      ]);
      expect(paths(prefix('a//b/.'))).toEqual([
        `${at}.path: Invalid value: "a//b/.": must be an absolute path`,
        `${at}.path: Invalid value: "a//b/.": must not contain '//'`,
        `${at}.path: Invalid value: "a//b/.": cannot end with '/.'`,
      ]);
      expect(paths({ ...prefix('x'), pathType: 'ImplementationSpecific' })).toEqual([
        `${at}.path: Invalid value: "x": must be an absolute path`,
      ]);
      expect(validateIngress({ rules: [{ http: { paths: [] } }] })).toEqual([
        'spec.rules[0].http.paths: Required value',
      ]);
    });

    it('checks hosts, the TLS secret and the class name', () => {
      expect(
        validateIngress({
          ingressClassName: 'Nginx',
          tls: [{ hosts: ['*'], secretName: 'TLS' }],
          rules: [{ host: '10.0.0.1', http: { paths: [prefix('/')] } }],
        }),
      ).toEqual([
        'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
        expect.stringMatching(
          /^spec\.tls\[0\]\.hosts\[0\]: Invalid value: "\*": a wildcard DNS-1123 subdomain/,
        ),
        expect.stringMatching(
          /^spec\.tls\[0\]\.secretName: Invalid value: "TLS": a lowercase RFC 1123 subdomain/,
        ),
        expect.stringMatching(
          /^spec\.ingressClassName: Invalid value: "Nginx": a lowercase RFC 1123 subdomain/,
        ),
      ]);
    });

    it('refuses a class annotation that differs from ingressClassName, on create only', () => {
      const annotated = (value: string): Ingress => ({
        metadata: {
          name: 'web',
          namespace: 'default',
          annotations: { 'kubernetes.io/ingress.class': value },
        },
        spec: { ingressClassName: 'nginx', defaultBackend: service('web', { number: 80 }) },
      });
      expect(messages(ingresses.validate(annotated('nginx')))).toEqual([]);
      expect(messages(ingresses.validate(annotated('traefik')))).toEqual([
        'annotations.kubernetes.io/ingress.class: Invalid value: "traefik": must match `ingressClassName` when both are specified',
      ]);
      const stored = {
        ...annotated('traefik'),
        metadata: { ...annotated('traefik').metadata, resourceVersion: '1' },
      };
      expect(messages(ingresses.validateUpdate(stored, stored))).toEqual([]);
    });

    it('checks the load balancer status', () => {
      const obj = ingress({ defaultBackend: service('web', { number: 80 }) });
      obj.status = { loadBalancer: { ingress: [{ ip: '10.0.0.300' }, { hostname: '10.0.0.2' }] } };
      expect(messages(ingresses.validate(obj))).toEqual([
        expect.stringMatching(
          /^status\.loadBalancer\.ingress\[0\]\.ip: Invalid value: "10\.0\.0\.300": must be a valid IP address/,
        ),
        'status.loadBalancer.ingress[1].hostname: Invalid value: "10.0.0.2": must be a DNS name, not an IP address',
      ]);
    });
  });

  describe('IngressClass validation', () => {
    it('defaults the parameters scope to Cluster', () => {
      const spec = { controller: 'example.com/lb', parameters: { kind: 'Params', name: 'p' } };
      expect(validateClass(spec)).toEqual([]);
      const obj = { metadata: { name: 'c' }, spec: { ...spec, parameters: { ...spec.parameters } } };
      classes.default(obj);
      expect(obj.spec.parameters).toEqual({ kind: 'Params', name: 'p', scope: 'Cluster' });
    });

    it('needs a domain-prefixed controller, which never changes', () => {
      expect(validateClass({})).toEqual(['spec.controller: Required value']);
      expect(validateClass({ controller: 'nginx' })).toEqual([
        'spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
      ]);
      expect(validateClass({ controller: 'Acme.io/a b' })).toEqual([
        expect.stringMatching(/^spec\.controller: Invalid value: "Acme\.io": a lowercase RFC 1123 subdomain/),
        expect.stringMatching(/^spec\.controller: Invalid value: "a b": must be a valid path/),
      ]);
      const old = { metadata: { name: 'c', resourceVersion: '1' }, spec: { controller: 'example.com/a' } };
      expect(
        messages(classes.validateUpdate({ ...old, spec: { controller: 'example.com/b' } }, old)),
      ).toEqual([
        expect.stringMatching(/^spec\.controller: Invalid value: "example\.com\/b": field is immutable/),
      ]);
    });

    it('ties the parameters namespace to their scope', () => {
      const params = (p: object) => validateClass({ controller: 'example.com/lb', parameters: p as never });
      expect(params({ kind: 'P', name: 'p', scope: 'Namespace' })).toEqual([
        "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
      ]);
      expect(params({ kind: 'P', name: 'p', scope: 'Namespace', namespace: 'ns' })).toEqual([]);
      expect(params({ kind: 'P', name: 'p', scope: 'Cluster', namespace: 'ns' })).toEqual([
        "spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'",
      ]);
      expect(params({ kind: 'P', name: 'p', scope: 'Global' })).toEqual([
        'spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"',
      ]);
    });
  });

  describe('NetworkPolicy', () => {
    const policies = compileKind(NetworkPolicyKind as KindDeclaration<any>);
    const check = (spec: NetworkPolicy['spec']): string[] => {
      const obj: NetworkPolicy = { metadata: { name: 'p', namespace: 'default' }, spec };
      policies.default(obj);
      return messages(policies.validate(obj));
    };

    it('has Kubernetes protobuf numbers', () => {
      expect(protos(NetworkPolicySpecSchema)).toEqual({
        podSelector: 1,
        ingress: 2,
        egress: 3,
        policyTypes: 4,
      });
      expect(protos(NetworkPolicyPeerSchema)).toEqual({ podSelector: 1, namespaceSelector: 2, ipBlock: 3 });
      expect(protos(NetworkPolicyPortSchema)).toEqual({ protocol: 1, port: 2, endPort: 3 });
    });

    it('defaults the selector, the policy types and the port protocol as Kubernetes does', () => {
      const obj: NetworkPolicy = { metadata: { name: 'p' }, spec: { ingress: [{ ports: [{ port: 80 }] }] } };
      policies.default(obj);
      expect(obj.spec).toEqual({
        podSelector: {},
        ingress: [{ ports: [{ port: 80, protocol: 'TCP' }] }],
        policyTypes: ['Ingress'],
      });
      const egress: NetworkPolicy = { metadata: { name: 'p' }, spec: { egress: [{}] } };
      policies.default(egress);
      expect(egress.spec!.policyTypes).toEqual(['Ingress', 'Egress']);
      const named: NetworkPolicy = {
        metadata: { name: 'p' },
        spec: { egress: [{}], policyTypes: ['Egress'] },
      };
      policies.default(named);
      expect(named.spec!.policyTypes).toEqual(['Egress']);
    });

    it('checks ports, peers and address blocks', () => {
      expect(
        check({
          ingress: [
            {
              ports: [
                { port: 80, endPort: 79 },
                { port: 'http', endPort: 90 },
                { endPort: 1 },
                { protocol: 'ICMP' },
              ],
              from: [{}, { podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } }],
            },
          ],
          egress: [
            {
              to: [
                { ipBlock: { cidr: '10.0.0.0/8', except: ['10.0.0.0/8', '11.0.0.0/16', 'x'] } },
                { ipBlock: {} },
              ],
            },
          ],
        }),
      ).toEqual([
        'spec.ingress[0].ports[0].endPort: Invalid value: 79: must be greater than or equal to `port`',
        'spec.ingress[0].ports[1].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
        'spec.ingress[0].ports[2].endPort: Invalid value: 1: may not be specified when `port` is not specified',
        'spec.ingress[0].ports[3].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        'spec.ingress[0].from[0]: Required value: must specify a peer',
        'spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer',
        'spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
        'spec.egress[0].to[0].ipBlock.except[1]: Invalid value: "11.0.0.0/16": must be a strict subset of `cidr`',
        'spec.egress[0].to[0].ipBlock.except[2]: Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
        'spec.egress[0].to[1].ipBlock.cidr: Required value',
      ]);
    });

    it('allows Ingress and Egress, at most both', () => {
      expect(check({ policyTypes: ['Egress'] })).toEqual([]);
      expect(check({ policyTypes: ['Ingress', 'Sideways'] })).toEqual([
        'spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Egress", "Ingress"',
      ]);
      expect(check({ policyTypes: ['Ingress', 'Egress', 'Ingress'] })).toEqual([
        'spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes',
      ]);
    });
  });

  it('prints the columns kubectl shows', () => {
    const rule = (host?: string) => ({ host });
    expect(ingressHosts(undefined)).toBe('*');
    expect(ingressHosts([rule()])).toBe('*');
    expect(ingressHosts([rule('a'), rule(), rule('b')])).toBe('a,b');
    expect(ingressHosts([rule('a'), rule('b'), rule('c'), rule('d'), rule('e')])).toBe('a,b,c + 2 more...');
    expect(
      ingressAddress({
        metadata: {},
        status: {
          loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example.com' }, { ip: '10.0.0.2' }] },
        },
      }),
    ).toBe('10.0.0.2,lb.example.com');
    expect(ingressClassParameters(undefined)).toBe('<none>');
    expect(ingressClassParameters({ kind: 'P', name: 'p' })).toBe('P/p');
    expect(ingressClassParameters({ apiGroup: 'example.com', kind: 'P', name: 'p' })).toBe('P.example.com/p');
  });
});
