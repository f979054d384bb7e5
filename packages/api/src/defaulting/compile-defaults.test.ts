import { bool, field, int32, list, map, str, struct } from '../schema/fields';
import { compileDefaults } from './compile-defaults';

const calls: string[] = [];

const RollingUpdate = struct(
  'io.k8s.api.apps.v1.RollingUpdateDeployment',
  { maxUnavailable: str({ proto: 1, default: '25%' }), maxSurge: str({ proto: 2, default: '25%' }) },
  { defaults: () => calls.push('rollingUpdate') },
);
const Strategy = struct(
  'io.k8s.api.apps.v1.DeploymentStrategy',
  {
    type: str({ proto: 1, default: 'RollingUpdate' }),
    rollingUpdate: field(RollingUpdate, { proto: 2 }),
  },
  {
    defaults: (s) => {
      calls.push(`strategy(type=${s.type})`);
      if (s.type === 'RollingUpdate' && s.rollingUpdate === undefined) s.rollingUpdate = {};
    },
  },
);
const Port = struct(
  'io.k8s.api.core.v1.ContainerPort',
  { containerPort: int32({ proto: 3 }), protocol: str({ proto: 4, default: 'TCP' }) },
  { defaults: (p) => calls.push(`port(${p.containerPort}, ${p.protocol})`) },
);
const Container = struct(
  'io.k8s.api.core.v1.Container',
  {
    name: str({ proto: 1 }),
    image: str({ proto: 2 }),
    imagePullPolicy: str({ proto: 14 }),
    ports: list(Port, { proto: 6 }),
    env: list(struct('io.k8s.api.core.v1.EnvVar', { name: str({ proto: 1 }) }), { proto: 7 }),
  },
  {
    defaults: (c) => {
      calls.push(`container(${c.name})`);
      if (c.imagePullPolicy === undefined)
        c.imagePullPolicy = c.image?.endsWith(':latest') ? 'Always' : 'IfNotPresent';
    },
  },
);
const Spec = struct(
  'io.k8s.api.apps.v1.DeploymentSpec',
  {
    replicas: int32({ proto: 1, default: 1 }),
    paused: bool({ proto: 7 }),
    revisionHistoryLimit: int32({ proto: 6, default: 10 }),
    selectorLabels: map(str(), { proto: 9, default: { app: 'x' } }),
    strategy: field(Strategy, { proto: 4, default: {} }),
    containers: list(Container, { proto: 2 }),
    byName: map(Container, { proto: 8 }),
  },
  { defaults: () => calls.push('spec') },
);

const defaults = compileDefaults(Spec);

beforeEach(() => {
  calls.length = 0;
});

describe('compileDefaults', () => {
  it('fills absent fields and keeps explicit zero values (pointer semantics)', () => {
    const a: Record<string, unknown> = {};
    defaults(a);
    expect(a.replicas).toBe(1);
    expect(a.revisionHistoryLimit).toBe(10);
    expect(a.paused).toBeUndefined();
    const b: Record<string, unknown> = { replicas: 0, revisionHistoryLimit: 0 };
    defaults(b);
    expect(b.replicas).toBe(0);
    expect(b.revisionHistoryLimit).toBe(0);
  });

  it('defaults structs created by a default, and structs created by a hook, recursively', () => {
    const s: Record<string, unknown> = {};
    defaults(s);
    expect(s.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
    const recreate: Record<string, unknown> = { strategy: { type: 'Recreate' } };
    defaults(recreate);
    expect(recreate.strategy).toEqual({ type: 'Recreate' });
  });

  it('clones default values so objects never share them', () => {
    const a: Record<string, Record<string, string>> = {};
    const b: Record<string, Record<string, string>> = {};
    defaults(a);
    defaults(b);
    a.selectorLabels!.app = 'changed';
    expect(b.selectorLabels).toEqual({ app: 'x' });
    const c: Record<string, Record<string, string>> = {};
    defaults(c);
    expect(c.selectorLabels).toEqual({ app: 'x' });
  });

  it('recurses into lists and maps of structs', () => {
    const s = {
      containers: [
        {
          name: 'a',
          image: 'nginx:latest',
          ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
        },
      ],
      byName: { b: { name: 'b', image: 'nginx:1.19' } as Record<string, unknown> },
    };
    defaults(s);
    expect(s.containers[0]).toEqual({
      name: 'a',
      image: 'nginx:latest',
      imagePullPolicy: 'Always',
      ports: [
        { containerPort: 80, protocol: 'TCP' },
        { containerPort: 53, protocol: 'UDP' },
      ],
    });
    expect(s.byName.b.imagePullPolicy).toBe('IfNotPresent');
  });

  it("runs a struct's hook after its constant defaults and before its children (SetObjectDefaults order)", () => {
    defaults({ containers: [{ name: 'a', ports: [{ containerPort: 80 }] }] });
    expect(calls).toEqual([
      'spec',
      'strategy(type=RollingUpdate)',
      'rollingUpdate',
      'container(a)',
      'port(80, TCP)',
    ]);
  });

  it('ignores values of the wrong type', () => {
    const s = { containers: 'x', strategy: 5, byName: [1] };
    expect(() => defaults(s)).not.toThrow();
    expect(s.strategy).toBe(5);
  });

  it('leaves a struct whose hook throws on a malformed value to validation, defaulting the rest', () => {
    const s: Record<string, any> = { containers: [{ name: 'a', image: 42, ports: [{ containerPort: 80 }] }] };
    expect(() => defaults(s)).not.toThrow();
    expect(s.containers[0].ports[0].protocol).toBe('TCP');
    expect(s.containers[0].imagePullPolicy).toBeUndefined();
  });
});
