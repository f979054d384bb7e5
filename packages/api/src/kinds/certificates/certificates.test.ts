import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import type { KindDeclaration } from '../../schema/kind';
import { compileKind } from '../../validation';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  CertificateSigningRequestConditionSchema,
  CertificateSigningRequestKind,
  CertificateSigningRequestSpecSchema,
  CertificateSigningRequestStatusSchema,
  type CertificateSigningRequest,
} from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const run = (schema: TSchema, value: unknown, path: string): string[] =>
  (structHooks(schema)!.validate!(value, path, { root: value }) as FieldError[]).map(errorMessage);

const pemRequest = Buffer.from(
  '-----BEGIN CERTIFICATE REQUEST-----\nMIIBAA==\n-----END CERTIFICATE REQUEST-----\n',
).toString('base64');

describe('certificates.k8s.io/v1 CertificateSigningRequest', () => {
  it('has Kubernetes protobuf numbers and merge metadata', () => {
    expect(protos(CertificateSigningRequestSpecSchema)).toEqual({
      request: 1,
      signerName: 7,
      expirationSeconds: 8,
      usages: 5,
      username: 2,
      uid: 3,
      groups: 4,
      extra: 6,
    });
    expect(protos(CertificateSigningRequestStatusSchema)).toEqual({ conditions: 1, certificate: 2 });
    expect(protos(CertificateSigningRequestConditionSchema)).toEqual({
      type: 1,
      status: 6,
      reason: 2,
      message: 3,
      lastUpdateTime: 4,
      lastTransitionTime: 5,
    });
    expect(CertificateSigningRequestSpecSchema.required).toEqual(['request', 'signerName']);
    const conditions = CertificateSigningRequestStatusSchema.properties.conditions as unknown as Record<
      string,
      unknown
    >;
    expect(conditions['x-kubernetes-list-type']).toBe('map');
    expect(conditions['x-kubernetes-list-map-keys']).toEqual(['type']);
    expect(CertificateSigningRequestConditionSchema.properties.status.default).toBe('True');
    const extra = CertificateSigningRequestSpecSchema.properties.extra as unknown as Record<string, unknown>;
    expect(extra[OrchKeyword.protoWrapper]).toBe('k8s.io.api.certificates.v1.ExtraValue');
  });

  it('declares the status and approval subresources and the signerName field selector', () => {
    expect(CertificateSigningRequestKind.shortNames).toEqual(['csr']);
    expect(
      CertificateSigningRequestKind.selectableFields!['spec.signerName']!({
        spec: { request: '', signerName: 'example.com/x' },
      }),
    ).toBe('example.com/x');
    expect(CertificateSigningRequestKind.subresources).toMatchObject({
      status: true,
      approval: { verbs: expect.any(Array) },
    });
  });

  it('validates the request, signer name and usages with Kubernetes messages', () => {
    const good = {
      request: pemRequest,
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['client auth'],
    };
    expect(run(CertificateSigningRequestSpecSchema, good, 'spec')).toEqual([]);
    const bad = {
      request: Buffer.from('-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n').toString(
        'base64',
      ),
      signerName: 'example',
      usages: ['client auth', 'flying', 'client auth'],
    };
    const messages = run(CertificateSigningRequestSpecSchema, bad, 'spec');
    expect(messages[0]).toMatch(
      /^spec.request: Invalid value: .*: PEM block type must be CERTIFICATE REQUEST$/,
    );
    expect(messages.slice(1)).toEqual([
      'spec.signerName: Invalid value: "example": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
      expect.stringMatching(
        /^spec.usages\[1\]: Unsupported value: "flying": supported values: "any", "cert sign", /,
      ),
      'spec.usages[2]: Duplicate value: "client auth"',
    ]);
    expect(run(CertificateSigningRequestSpecSchema, { ...good, usages: [] }, 'spec')).toEqual([
      'spec.usages: Required value: usages must be provided',
    ]);
    expect(run(CertificateSigningRequestSpecSchema, { ...good, signerName: 'example/x' }, 'spec')).toEqual([
      'spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots',
    ]);
  });

  it('rejects approved and denied together', () => {
    const status = {
      conditions: [
        { type: 'Approved', status: 'True' },
        { type: 'Denied', status: 'True' },
      ],
    };
    expect(run(CertificateSigningRequestStatusSchema, status, 'status')).toEqual([
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    ]);
    expect(
      run(
        CertificateSigningRequestStatusSchema,
        { conditions: [{ type: 'Approved', status: 'False' }] },
        'status',
      ),
    ).toEqual(['status.conditions[0].status: Unsupported value: "False": supported values: "True"']);
  });

  it('prints NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION', () => {
    const now = new Date('2021-01-01T00:00:30Z');
    const csr: CertificateSigningRequest = {
      metadata: { name: 'csr-1', creationTimestamp: '2021-01-01T00:00:00Z' },
      spec: { request: pemRequest, signerName: 'kubernetes.io/kubelet-serving', username: 'system:node:n1' },
    };
    const cells = (c: CertificateSigningRequest) =>
      CertificateSigningRequestKind.columns!.map((col) => col.cell(c, now));
    expect(CertificateSigningRequestKind.columns!.map((c) => c.name)).toEqual([
      'Name',
      'Age',
      'SignerName',
      'Requestor',
      'RequestedDuration',
      'Condition',
    ]);
    expect(cells(csr)).toEqual([
      'csr-1',
      '30s',
      'kubernetes.io/kubelet-serving',
      'system:node:n1',
      '<none>',
      'Pending',
    ]);
    expect(cells({ ...csr, spec: { ...csr.spec, expirationSeconds: 86400 } })[4]).toBe('24h');
    expect(cells({ ...csr, spec: { ...csr.spec, expirationSeconds: 600 } })[4]).toBe('10m');
    const issued = {
      ...csr,
      status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'AAAA' },
    };
    expect(cells(issued)[5]).toBe('Approved,Issued');
    const denied = {
      ...csr,
      status: {
        conditions: [
          { type: 'Denied', status: 'True' },
          { type: 'Failed', status: 'True' },
        ],
      },
    };
    expect(cells(denied)[5]).toBe('Denied,Failed');
    expect(cells({ ...csr, spec: { ...csr.spec, signerName: '' } })[2]).toBe('<none>');
  });
});

describe('CertificateSigningRequest names', () => {
  it('accepts any name, as Kubernetes does', () => {
    // Kinds with typed field selectors are wired through KindDeclaration<any>, as allKinds does.
    const compiled = compileKind(CertificateSigningRequestKind as KindDeclaration<any>, {});
    const csr: CertificateSigningRequest = {
      metadata: { name: 'Node CSR:1' },
      spec: { request: pemRequest, signerName: 'kubernetes.io/kubelet-serving', usages: ['server auth'] },
    };
    expect(compiled.validate(csr)).toEqual([]);
  });
});
