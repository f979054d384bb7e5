import type { Static } from '@sinclair/typebox';
import {
  bytes,
  field,
  int32,
  list,
  map,
  required,
  str,
  struct,
  time,
  type StructSchema,
} from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { isDNS1123Subdomain } from '../../util/names';
import type { NameValidator } from '../../validation/object-meta';
import {
  child,
  duplicate,
  invalid,
  notSupported,
  required as requiredError,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn, shortHumanDuration } from '../columns';

/** Key usages a request may ask for (x509 key usages and extended key usages). */
export const KeyUsages = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
] as const;

/** Kubernetes' ValidateCertificateRequestName: any name is accepted. */
export const validateCertificateRequestName: NameValidator = () => [];

export const RequestConditionTypes = ['Approved', 'Denied', 'Failed'] as const;

const SIGNER_NAME_FORM = "must be a fully qualified domain and path of the form 'example.com/signer-name'";

const certificateSigningRequestSpecFields = {
  request: required(bytes({ proto: 1, description: 'A PEM encoded "CERTIFICATE REQUEST".' })),
  signerName: required(
    str({
      proto: 7,
      description: "The signer asked to issue the certificate, e.g. 'example.com/signer'.",
    }),
  ),
  expirationSeconds: int32({
    proto: 8,
    description: 'Requested validity duration of the certificate; the signer may ignore it.',
  }),
  usages: list(str(), {
    proto: 5,
    listType: 'atomic',
    description: 'Key usages requested in the certificate.',
  }),
  username: str({
    proto: 2,
    description: 'The user who created the request; set by the server.',
  }),
  uid: str({
    proto: 3,
    description: 'UID of the user who created the request; set by the server.',
  }),
  groups: list(str(), {
    proto: 4,
    listType: 'atomic',
    description: 'Groups of the user who created the request; set by the server.',
  }),
  extra: map(list(str()), {
    proto: 6,
    protoWrapper: 'k8s.io.api.certificates.v1.ExtraValue',
    description: 'Extra attributes of the user who created the request; set by the server.',
  }),
};
type CertificateSigningRequestSpecValue = Static<StructSchema<typeof certificateSigningRequestSpecFields>>;

export const CertificateSigningRequestSpecSchema = struct(
  'io.k8s.api.certificates.v1.CertificateSigningRequestSpec',
  certificateSigningRequestSpecFields,
  { validate: (spec, path) => validateCertificateSigningRequestSpec(spec, path) },
);

/** The type of the first PEM block of `pem`, undefined when there is none. */
function firstPemBlockType(pem: string): string | undefined {
  const match = /-----BEGIN ([^\r\n-]+)-----\r?\n[\s\S]*?-----END \1-----/.exec(pem);
  return match?.[1];
}

/** Kubernetes' ValidateSignerName: a domain and a path, "example.com/signer-name". */
export function validateSignerName(signerName: string | undefined, path: string): FieldError[] {
  if (!signerName) return [requiredError(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalid(path, signerName, SIGNER_NAME_FORM)];
  const [domain, name] = segments as [string, string];
  const errors: FieldError[] = [];
  if (name.length === 0) errors.push(requiredError(path, SIGNER_NAME_FORM));
  if (domain.length === 0) {
    errors.push(requiredError(path, SIGNER_NAME_FORM));
  } else {
    const host = domain.endsWith('.') ? domain.slice(0, -1) : domain;
    const msgs = isDNS1123Subdomain(host);
    if (msgs.length) errors.push(invalid(path, host, msgs.join(',')));
    else if (host.split('.').length < 2) {
      errors.push(invalid(path, host, 'should be a domain with at least two segments separated by dots'));
    }
  }
  return errors;
}

/** Kubernetes' checks of a CertificateSigningRequest's spec (request, signer name, usages). */
function validateCertificateSigningRequestSpec(
  spec: CertificateSigningRequestSpecValue,
  path: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const pem = Buffer.from(spec.request ?? '', 'base64').toString('latin1');
  if (firstPemBlockType(pem) !== 'CERTIFICATE REQUEST') {
    errors.push(invalid(child(path, 'request'), spec.request, 'PEM block type must be CERTIFICATE REQUEST'));
  }
  errors.push(...validateSignerName(spec.signerName, child(path, 'signerName')));
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds < 600) {
    errors.push(
      invalid(
        child(path, 'expirationSeconds'),
        spec.expirationSeconds,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    );
  }
  const usages = spec.usages ?? [];
  if (usages.length === 0) errors.push(requiredError(child(path, 'usages'), 'usages must be provided'));
  const valid: string[] = [...KeyUsages].sort();
  const seen = new Set<string>();
  usages.forEach((usage, i) => {
    const at = child(child(path, 'usages'), i);
    if (!valid.includes(usage)) errors.push(notSupported(at, usage, valid));
    if (seen.has(usage)) errors.push(duplicate(at, usage));
    seen.add(usage);
  });
  return errors;
}

export const CertificateSigningRequestConditionSchema = struct(
  'io.k8s.api.certificates.v1.CertificateSigningRequestCondition',
  {
    type: required(str({ proto: 1, description: 'Type of the condition: Approved, Denied or Failed.' })),
    status: required(
      str({
        proto: 6,
        default: 'True',
        description: 'Status of the condition: True, False or Unknown. Defaults to True.',
      }),
    ),
    reason: str({ proto: 2, description: 'Brief machine-readable reason of the condition.' }),
    message: str({ proto: 3, description: 'Human readable details of the condition.' }),
    lastUpdateTime: time({ proto: 4, description: 'When the condition was last updated.' }),
    lastTransitionTime: time({ proto: 5, description: 'When the condition last changed its status.' }),
  },
);

const certificateSigningRequestStatusFields = {
  conditions: list(CertificateSigningRequestConditionSchema, {
    proto: 1,
    listType: 'map',
    listMapKeys: ['type'],
    description: 'Approved, Denied and Failed conditions of the request.',
  }),
  certificate: bytes({
    proto: 2,
    description: 'The issued certificate chain, PEM encoded; set by the signer once approved.',
  }),
};
type CertificateSigningRequestStatusValue = Static<
  StructSchema<typeof certificateSigningRequestStatusFields>
>;

export const CertificateSigningRequestStatusSchema = struct(
  'io.k8s.api.certificates.v1.CertificateSigningRequestStatus',
  certificateSigningRequestStatusFields,
  { validate: (status, path) => validateConditions(status, child(path, 'conditions')) },
);

/** Kubernetes' validateConditions of a CertificateSigningRequest status. */
function validateConditions(status: CertificateSigningRequestStatusValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  (status.conditions ?? []).forEach((c, i) => {
    const at = child(path, i);
    if (!c.type) errors.push(requiredError(child(at, 'type')));
    const allowed = c.type === 'Approved' || c.type === 'Denied' ? ['True'] : ['True', 'False', 'Unknown'];
    if (!c.status) errors.push(requiredError(child(at, 'status')));
    else if (!allowed.includes(c.status)) errors.push(notSupported(child(at, 'status'), c.status, ['True']));
    if (c.type === 'Approved') {
      approved = true;
      if (denied)
        errors.push(
          invalid(child(at, 'type'), c.type, 'Approved and Denied conditions are mutually exclusive'),
        );
    } else if (c.type === 'Denied') {
      denied = true;
      if (approved)
        errors.push(
          invalid(child(at, 'type'), c.type, 'Approved and Denied conditions are mutually exclusive'),
        );
    }
    if (seen.has(c.type)) errors.push(duplicate(child(at, 'type'), c.type));
    seen.add(c.type);
  });
  return errors;
}

export const CertificateSigningRequestSchema = struct(
  'io.k8s.api.certificates.v1.CertificateSigningRequest',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: required(
      field(CertificateSigningRequestSpecSchema, {
        proto: 2,
        description: 'The certificate request; cannot be updated.',
      }),
    ),
    status: field(CertificateSigningRequestStatusSchema, {
      proto: 3,
      description: 'Approval state and the issued certificate.',
    }),
  },
  {
    description:
      'A request for a certificate from a named signer, approved or denied before the signer issues it.',
  },
);
export type CertificateSigningRequest = Static<typeof CertificateSigningRequestSchema>;

/** The CONDITION cell: Denied / Approved / Pending, then ",Failed" and ",Issued". */
export function csrConditionCell(csr: CertificateSigningRequest): string {
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (csr.status?.certificate) text += ',Issued';
  return text;
}

export const CertificateSigningRequestKind = defineKind({
  nameValidation: validateCertificateRequestName,
  group: 'certificates.k8s.io',
  versions: ['v1'],
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  shortNames: ['csr'],
  namespaced: false,
  schema: CertificateSigningRequestSchema,
  subresources: {
    status: true,
    approval: { kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] },
  },
  selectableFields: {
    'spec.signerName': (csr) => csr.spec.signerName,
  },
  columns: [
    nameColumn(),
    ageColumn(),
    {
      name: 'SignerName',
      type: 'string',
      description: 'The signer asked to issue the certificate.',
      cell: (csr) => csr.spec.signerName || '<none>',
    },
    {
      name: 'Requestor',
      type: 'string',
      description: 'The user who created the request.',
      cell: (csr) => csr.spec.username ?? '',
    },
    {
      name: 'RequestedDuration',
      type: 'string',
      description: 'The validity the request asked for (spec.expirationSeconds).',
      cell: (csr) =>
        csr.spec.expirationSeconds === undefined
          ? '<none>'
          : shortHumanDuration(csr.spec.expirationSeconds * 1000),
    },
    {
      name: 'Condition',
      type: 'string',
      description: 'Approval state of the request.',
      cell: csrConditionCell,
    },
  ],
});
