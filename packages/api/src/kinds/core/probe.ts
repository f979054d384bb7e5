import type { Static } from '@sinclair/typebox';
import { field, int32, int64, intOrString, list, required, str, struct } from '../../schema/fields';
import type { FieldErrorLike, IntOrString } from '../../schema/fields';
import { isValidPortName, isValidPortNum } from '../../util/names';
import { child, forbidden, invalid, required as requiredError } from '../../validation/field-error';
import { inlined } from '../../schema/fields';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/** Kubernetes' ValidatePortNumOrName: numbers 1-65535, names IANA_SVC_NAME. */
export function validatePortNumOrName(port: IntOrString, path: string): FieldErrorLike[] {
  const msgs = typeof port === 'number' ? isValidPortNum(port) : isValidPortName(port);
  return msgs.map((msg) => invalid(path, port, msg));
}

export const ExecActionSchema = struct(
  core('ExecAction'),
  {
    command: list(str(), { proto: 1, description: 'Command line run in the container, not in a shell.' }),
  },
  { validate: (v, path) => (v.command?.length ? [] : [requiredError(child(path, 'command'))]) },
);
export type ExecAction = Static<typeof ExecActionSchema>;

export const HTTPHeaderSchema = struct(core('HTTPHeader'), {
  name: required(str({ proto: 1, description: 'Header field name.' })),
  value: required(str({ proto: 2, description: 'Header field value.' })),
});
export type HTTPHeader = Static<typeof HTTPHeaderSchema>;

export const HTTPGetActionSchema = struct(
  core('HTTPGetAction'),
  {
    path: str({ proto: 1, default: '/', description: 'Path to request on the HTTP server.' }),
    port: required(
      intOrString({ proto: 2, description: 'Port number (1-65535) or IANA_SVC_NAME to connect to.' }),
    ),
    host: str({ proto: 3, omitZero: true, description: 'Host to connect to; the pod IP by default.' }),
    scheme: str({
      proto: 4,
      enum: ['HTTP', 'HTTPS'],
      default: 'HTTP',
      description: 'HTTP or HTTPS; HTTP by default.',
    }),
    httpHeaders: list(HTTPHeaderSchema, { proto: 5, description: 'Custom headers set on the request.' }),
  },
  {
    defaults: (v) => {
      if (!v.path) v.path = '/';
      if (!v.scheme) v.scheme = 'HTTP';
    },
    validate: (v, path) => [...validatePortNumOrName(v.port, child(path, 'port'))],
  },
);
export type HTTPGetAction = Static<typeof HTTPGetActionSchema>;

export const TCPSocketActionSchema = struct(
  core('TCPSocketAction'),
  {
    port: required(
      intOrString({ proto: 1, description: 'Port number (1-65535) or IANA_SVC_NAME to connect to.' }),
    ),
    host: str({ proto: 2, omitZero: true, description: 'Host to connect to; the pod IP by default.' }),
  },
  { validate: (v, path) => validatePortNumOrName(v.port, child(path, 'port')) },
);
export type TCPSocketAction = Static<typeof TCPSocketActionSchema>;

export const GRPCActionSchema = struct(
  core('GRPCAction'),
  {
    port: required(int32({ proto: 1, description: 'Port number of the gRPC service, 1-65535.' })),
    service: str({
      proto: 2,
      description: 'Service name placed in the gRPC HealthCheckRequest; the server default when not set.',
    }),
  },
  {
    validate: (v, path) => isValidPortNum(v.port).map((msg) => invalid(child(path, 'port'), v.port, msg)),
  },
);
export type GRPCAction = Static<typeof GRPCActionSchema>;

const handlerFields = {
  exec: field(ExecActionSchema, { proto: 1, description: 'Run a command in the container.' }),
  httpGet: field(HTTPGetActionSchema, { proto: 2, description: 'Perform an HTTP GET request.' }),
  tcpSocket: field(TCPSocketActionSchema, { proto: 3, description: 'Open a TCP connection.' }),
};

/** A probe's handler: a lifecycle handler's, or a gRPC health check. */
const probeHandlerFields = {
  ...handlerFields,
  grpc: field(GRPCActionSchema, { proto: 4, description: 'Call the gRPC health checking service.' }),
};

interface HandlerLike {
  exec?: unknown;
  httpGet?: unknown;
  tcpSocket?: unknown;
  grpc?: unknown;
}

/** Kubernetes' validateHandler: exactly one of exec, httpGet, tcpSocket (and grpc for probes). */
function validateHandler(v: HandlerLike, path: string): FieldErrorLike[] {
  const errs: FieldErrorLike[] = [];
  let count = 0;
  for (const name of ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const) {
    if (v[name] === undefined || v[name] === null) continue;
    if (count > 0) errs.push(forbidden(child(path, name), 'may not specify more than 1 handler type'));
    else count++;
  }
  if (count === 0) errs.push(requiredError(path, 'must specify a handler type'));
  return errs;
}

export const HandlerSchema = struct(core('Handler'), handlerFields, { validate: validateHandler });
export type Handler = Static<typeof HandlerSchema>;

export const LifecycleSchema = struct(core('Lifecycle'), {
  postStart: field(HandlerSchema, { proto: 1, description: 'Run right after the container is created.' }),
  preStop: field(HandlerSchema, { proto: 2, description: 'Run right before the container is terminated.' }),
});
export type Lifecycle = Static<typeof LifecycleSchema>;

/** Probe defaults (Kubernetes' SetDefaults_Probe, applied also to explicit zeros). */
export const probeDefaults = {
  timeoutSeconds: 1,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
} as const;

const nonNegativeProbeFields = [
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
] as const;

export const ProbeSchema = struct(
  core('Probe'),
  {
    ...inlined(
      { field: 'handler', proto: 1, message: 'k8s.io.api.core.v1.ProbeHandler' },
      probeHandlerFields,
    ),
    initialDelaySeconds: int32({
      proto: 2,
      omitZero: true,
      description: 'Seconds after the container started before probing.',
    }),
    timeoutSeconds: int32({
      proto: 3,
      default: probeDefaults.timeoutSeconds,
      description: 'Probe timeout in seconds; 1 by default.',
    }),
    periodSeconds: int32({
      proto: 4,
      default: probeDefaults.periodSeconds,
      description: 'Seconds between probes; 10 by default.',
    }),
    successThreshold: int32({
      proto: 5,
      default: probeDefaults.successThreshold,
      description: 'Consecutive successes to count as healthy after a failure; 1 by default.',
    }),
    failureThreshold: int32({
      proto: 6,
      default: probeDefaults.failureThreshold,
      description: 'Consecutive failures to count as failed; 3 by default.',
    }),
    terminationGracePeriodSeconds: int64({
      proto: 7,
      description: 'Grace period on probe failure, overriding the pod value.',
    }),
  },
  {
    defaults: (p) => {
      for (const [name, value] of Object.entries(probeDefaults)) {
        const k = name as keyof typeof probeDefaults;
        if (!p[k]) p[k] = value;
      }
    },
    validate: (p, path) => {
      const errs = validateHandler(p, path);
      for (const name of nonNegativeProbeFields) {
        const v = p[name];
        if (v !== undefined && v < 0)
          errs.push(invalid(child(path, name), v, 'must be greater than or equal to 0'));
      }
      return errs;
    },
  },
);
export type Probe = Static<typeof ProbeSchema>;
