import { allKinds } from '@orch/api';
import { startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import { kubectlOK } from '../harness/kubectl';
import { kindTables, type Cell, type KindTable } from './kind-tables';
import { parseTable, type TableOutput } from './table-output';
import { createCertificateRequest } from '@orch/component-base';

const namespace = 'kc';
const tables = kindTables(createCertificateRequest('alice', ['devs']).request);

/**
 * Every stored kind a client can list: the declarations whose verbs include list (all verbs when
 * unsaid). Kinds computed when read (metrics.k8s.io) have no objects to create here; their tables are
 * checked in e2e/node-agent/kubectl-top.test.ts.
 */
const listable = allKinds.filter((k) => !k.virtual && (k.verbs ?? ['list']).includes('list'));
const resourceOf = (k: (typeof allKinds)[number]) => (k.group ? `${k.plural}.${k.group}` : k.plural);
const namespaced = new Map(listable.map((k) => [resourceOf(k), k.namespaced]));

const matches = (cell: string | undefined, want: Cell) =>
  typeof want === 'string' ? cell === want : cell !== undefined && want.test(cell);

/** Fails with both rows side by side when a row's cells differ from what Kubernetes prints. */
function expectRow(actual: readonly string[] | undefined, want: readonly Cell[], what: string): void {
  const ok =
    actual !== undefined && actual.length === want.length && want.every((w, i) => matches(actual[i], w));
  if (!ok) throw new Error(`${what}: got ${JSON.stringify(actual)}, want ${String(want.map(String))}`);
}

/** A claim no controller binds: Kubernetes lists it as Pending (see the known differences below). */
const unboundClaim = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: waiting}
spec:
  storageClassName: ""
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 2Gi}}
`;

/** The three listings checked per kind. */
type View = 'default' | 'wide' | 'all';

/** Runs `tasks` with at most `limit` in flight (kubectl spends most of its time waiting on the server). */
async function pooled<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

/** kubectl get's human-readable output against the columns and rows Kubernetes shows. */
describe('kubectl get tables for every kind', () => {
  let api: APIServerProcess;
  const get = async (...args: string[]): Promise<TableOutput> =>
    parseTable(await kubectlOK(api.kubeconfig, ['get', ...args]));
  const outputs = new Map<string, TableOutput>();

  /** The kubectl arguments of one listing of one kind. */
  const viewArgs = (key: string, table: KindTable, view: View): string[] => {
    const scope = namespaced.get(key) ? ['-n', namespace] : [];
    const names = Object.keys(table.rows);
    if (view === 'default') return [...scope, table.resource, ...names];
    if (view === 'wide') return [...scope, table.resource, ...names, '-o', 'wide'];
    return [table.resource, '-A', '--field-selector', `metadata.namespace=${namespace}`];
  };

  beforeAll(async () => {
    api = await startAPIServerProcess();
    await kubectlOK(api.kubeconfig, ['create', 'namespace', namespace]);
    await kubectlOK(api.kubeconfig, ['-n', namespace, 'create', 'serviceaccount', 'default']);
    const stream = Object.values(tables)
      .map((t) => t.manifests)
      .join('---\n');
    await kubectlOK(api.kubeconfig, ['-n', namespace, 'create', '-f', '-'], `${stream}---\n${unboundClaim}`);
    await pooled(
      Object.values(tables).flatMap((t) =>
        Object.entries(t.status ?? {}).map(
          ([name, status]) =>
            () =>
              kubectlOK(api.kubeconfig, [
                '-n',
                namespace,
                'patch',
                t.resource,
                name,
                '--subresource=status',
                '--type=merge',
                '-p',
                JSON.stringify({ status }),
              ]),
        ),
      ),
      6,
    );
    const views = Object.entries(tables).flatMap(([key, table]) =>
      (['default', 'wide', 'all'] as const)
        .filter((view) => view !== 'all' || namespaced.get(key) === true)
        .map((view) => ({ id: `${key} ${view}`, args: viewArgs(key, table, view) })),
    );
    const tablesOut = await pooled(
      views.map((v) => () => get(...v.args)),
      6,
    );
    views.forEach((v, i) => outputs.set(v.id, tablesOut[i]!));
  }, 90_000);
  afterAll(() => api?.destroy());

  it('has expected columns for exactly the kinds that serve list', () => {
    expect(Object.keys(tables).sort()).toEqual([...namespaced.keys()].sort());
  });

  describe.each(Object.entries(tables))('%s', (key: string, table: KindTable) => {
    const names = Object.keys(table.rows);

    it('prints the default columns and cells', () => {
      const out = outputs.get(`${key} default`)!;
      expect(out.header).toEqual(table.columns);
      names.forEach((name, i) => expectRow(out.rows[i], table.rows[name]!, `${key} ${name}`));
    });

    it('prints the wide columns and cells with -o wide', () => {
      const out = outputs.get(`${key} wide`)!;
      expect(out.header).toEqual(table.wideOrder ?? [...table.columns, ...table.wide]);
      for (const [i, name] of names.entries()) {
        const want = table.wideRows?.[name];
        if (want) expectRow(out.rows[i], want, `${key} ${name} -o wide`);
      }
    });

    if (namespaced.get(key) === true) {
      it('prefixes the namespace with -A', () => {
        const out = outputs.get(`${key} all`)!;
        expect(out.header).toEqual(['NAMESPACE', ...table.columns]);
        for (const [name, want] of Object.entries(table.rows)) {
          const row = out.rows.find((r) => want.every((w, i) => matches(r[i + 1], w)));
          if (!row) throw new Error(`${key} -A: no row for ${name} in ${JSON.stringify(out.rows)}`);
          expect(row[0]).toBe(namespace);
        }
      });
    }
  });

  describe('server-set cells', () => {
    // a new claim's status is reset on create to its defaults: phase Pending
    it('shows a fresh claim as Pending', async () => {
      const out = await get('-n', namespace, 'pvc', 'waiting');
      expectRow(out.rows[0], ['waiting', 'Pending', '', '', '', '', '<unset>', /^\d+s$/], 'pvc waiting');
    });

    // the requester recorded by the server from the caller's credentials (the admin certificate)
    it('shows the requesting user of a signing request', async () => {
      const out = await get('csr', 'alice');
      expect(out.rows[0]?.[3]).toBe('orch-admin');
    });
  });
});
