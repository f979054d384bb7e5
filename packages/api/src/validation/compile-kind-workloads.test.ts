import { PodKind } from '../kinds/core/pod';
import { DeploymentKind } from '../kinds/apps/deployment';
import { errorMessage } from './field-error';
import { compileKind } from './compile-kind';
import { invalidStatus } from './invalid-status';

/** A typical Pod: two containers with ports, env, resources, probes and mounts, two volumes, labels. */
function typicalPod(): Record<string, any> {
  const container = (name: string, image: string, port: number) => ({
    name,
    image,
    ports: [{ name: 'http', containerPort: port }],
    env: [
      { name: 'MODE', value: 'production' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ],
    resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: 0.25, memory: 134217728 } },
    livenessProbe: { httpGet: { path: '/healthz', port }, periodSeconds: 5 },
    readinessProbe: { tcpSocket: { port: 'http' } },
    volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      containers: [container('web', 'nginx:1.19', 8080), container('sidecar', 'envoy', 9090)],
      volumes: [
        { name: 'config', configMap: { name: 'web-config' } },
        { name: 'data', emptyDir: {} },
      ],
    },
  };
}

describe('compileKind on Pods', () => {
  const pods = compileKind(PodKind);

  it('prunes, defaults and validates a typical Pod as Kubernetes does', () => {
    const pod = typicalPod();
    pod.spec.containers[0].imagex = 'typo';
    pod.spec.nodeName = null;
    expect(pods.prune(pod).unknown).toEqual(['unknown field "spec.containers[0].imagex"']);
    expect('nodeName' in pod.spec).toBe(false);
    pods.default(pod);
    expect(pods.validate(pod)).toEqual([]);
    expect(pod.spec).toMatchObject({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    });
    const [web, sidecar] = pod.spec.containers;
    expect(web).toMatchObject({
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      imagePullPolicy: 'IfNotPresent',
      ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
      resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '250m', memory: '134217728' } },
      livenessProbe: {
        httpGet: { scheme: 'HTTP' },
        timeoutSeconds: 1,
        successThreshold: 1,
        failureThreshold: 3,
      },
    });
    expect(sidecar.imagePullPolicy).toBe('Always');
    expect(web.env[1].valueFrom.fieldRef.apiVersion).toBe('v1');
  });

  it('keeps explicit zero values instead of defaulting them', () => {
    const pod = typicalPod();
    pod.spec.terminationGracePeriodSeconds = 0;
    pods.prune(pod);
    pods.default(pod);
    expect(pod.spec.terminationGracePeriodSeconds).toBe(0);
  });

  it("reports schema errors with Kubernetes' paths and messages", () => {
    const pod = typicalPod();
    delete pod.spec.containers[1].name;
    pod.spec.containers[0].ports[0].containerPort = 'http';
    pods.prune(pod);
    pods.default(pod);
    const messages = pods.validate(pod).map(errorMessage);
    expect(messages).toContain('spec.containers[1].name: Required value');
    expect(messages).toContain(
      'spec.containers[0].ports[0].containerPort: Invalid value: "string": spec.containers[0].ports[0].containerPort in body must be of type integer: "string"',
    );
  });

  it('runs the struct hooks of a well-typed Pod', () => {
    const pod = typicalPod();
    pod.spec.restartPolicy = 'Sometimes';
    pods.prune(pod);
    pods.default(pod);
    expect(pods.validate(pod).map(errorMessage)).toEqual([
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ]);
  });

  it('allows an image change on update and forbids other spec changes through the kind rule', () => {
    const old = typicalPod();
    pods.prune(old);
    pods.default(old);
    const updated = structuredClone(old);
    updated.spec.containers[0].image = 'nginx:1.20';
    expect(pods.validateUpdate(updated, old)).toEqual([]);
    updated.spec.nodeName = 'node-2';
    const errs = pods.validateUpdate(updated, old);
    expect(errs.map((e) => `${e.type} ${e.field}`)).toEqual(['FieldValueForbidden spec']);
    expect(errs[0]!.detail).toMatch(
      /^pod updates may not change fields other than `spec.containers\[\*\].image`/,
    );
  });

  it('answers an invalid Pod with the Invalid status body', () => {
    const pod = typicalPod();
    pod.metadata.name = 'Web';
    pods.prune(pod);
    pods.default(pod);
    const status = invalidStatus('Pod', '', 'Web', pods.validate(pod));
    expect(status.code).toBe(422);
    expect(status.message).toBe(
      "Pod \"Web\" is invalid: metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
    expect(status.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
  });
});

describe('compileKind on Deployments', () => {
  const deployments = compileKind(DeploymentKind);

  it('defaults nested structs created by defaults (strategy) and the pod template', () => {
    const d: Record<string, any> = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx' }] },
        },
      },
    };
    expect(deployments.prune(d).unknown).toEqual([]);
    deployments.default(d);
    expect(deployments.validate(d)).toEqual([]);
    expect(d.spec).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    });
    expect(d.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    expect(d.spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
  });

  it('reports the Status body of an invalid Deployment', () => {
    const d: Record<string, any> = {
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: -1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx' }] },
        },
      },
    };
    deployments.default(d);
    const status = invalidStatus('Deployment', 'apps', 'web', deployments.validate(d));
    expect(status.message).toBe(
      'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(status.details).toEqual({
      name: 'web',
      group: 'apps',
      kind: 'Deployment',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: -1: must be greater than or equal to 0',
          field: 'spec.replicas',
        },
      ],
    });
  });
});

describe('a kind without its spec', () => {
  // Kubernetes' spec fields are struct values: an absent or null spec is the zero spec, validated as one
  it('validates the zero spec of a Deployment', () => {
    const deployments = compileKind(DeploymentKind);
    const obj = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
    };
    const errors = deployments.validate(obj).map(errorMessage);
    expect(errors).toContain('spec.selector: Required value');
    expect(errors.some((e) => e.startsWith('spec.template'))).toBe(true);
    expect(obj).not.toHaveProperty('spec');
  });

  it('validates the zero spec of a Pod', () => {
    const pods = compileKind(PodKind);
    const errors = pods.validate({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'd' } });
    expect(errors.map(errorMessage)).toContain('spec.containers: Required value');
  });
});
