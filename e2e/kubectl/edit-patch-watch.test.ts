import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import { kubectl, kubectlArgs, kubectlOK } from '../harness/kubectl';

/**
 * A non-interactive editor for `kubectl edit`: it keeps each file kubectl hands it (call-1.yaml,
 * call-2.yaml, ... in EDIT_DIR) and, on the first call only, sets spec.replicas to EDIT_REPLICAS and
 * adds the label edited=true. kubectl re-opens the editor after a rejected edit; the later calls
 * change nothing, which makes kubectl give up.
 */
const editorScript = `const fs = require('node:fs');
const YAML = require('yaml');
const file = process.argv[process.argv.length - 1];
const dir = process.env.EDIT_DIR;
const call = fs.readdirSync(dir).filter((f) => f.startsWith('call-')).length + 1;
const text = fs.readFileSync(file, 'utf8');
fs.writeFileSync(dir + '/call-' + call + '.yaml', text);
if (call === 1 && process.env.EDIT_REPLICAS) {
  const obj = YAML.parse(text);
  obj.spec.replicas = Number(process.env.EDIT_REPLICAS);
  obj.metadata.labels = { ...obj.metadata.labels, edited: 'true' };
  fs.writeFileSync(file, YAML.stringify(obj));
}
`;

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: app, labels: {app: app}, finalizers: [example.com/a, example.com/b]}
spec:
  replicas: 1
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers:
      - name: app
        image: busybox:1.36
        env: [{name: A, value: "1"}, {name: B, value: "2"}, {name: C, value: "3"}]
      - {name: sidecar, image: "envoy:1.29"}
`;

/** Stock kubectl's edit, strategic-merge patch directives and table watches against orch-apiserver. */
describe('kubectl edit, patch --type strategic and get -w', () => {
  let api: APIServerProcess;
  let dir: string;
  let editor: string;
  const k = (...args: string[]) => kubectlOK(api.kubeconfig, ['-n', 'kc', ...args]);
  const json = async (...args: string[]) => JSON.parse(await k('get', ...args, '-o', 'json'));

  /** Runs kubectl edit with the scripted editor; returns kubectl's result and the files it was handed. */
  const edit = async (run: string, replicas: string, ...args: string[]) => {
    const editDir = join(dir, run);
    mkdirSync(editDir);
    const result = await kubectl(api.kubeconfig, ['-n', 'kc', 'edit', ...args], undefined, 30_000, {
      KUBE_EDITOR: `${process.execPath} ${editor}`,
      EDITOR: `${process.execPath} ${editor}`,
      EDIT_DIR: editDir,
      EDIT_REPLICAS: replicas,
      // kubectl keeps a copy of a rejected edit in the temp directory
      TMPDIR: editDir,
      // the editor resolves the yaml package from this repository's node_modules
      NODE_PATH: dirname(dirname(require.resolve('yaml/package.json'))),
    });
    const calls = readdirSync(editDir)
      .filter((f) => f.startsWith('call-'))
      .sort()
      .map((f) => readFileSync(join(editDir, f), 'utf8'));
    return { ...result, calls };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-edit-'));
    editor = join(dir, 'editor.js');
    writeFileSync(editor, editorScript);
    api = await startAPIServerProcess();
    await kubectlOK(api.kubeconfig, ['create', 'namespace', 'kc']);
    await k('create', 'serviceaccount', 'default');
    await kubectlOK(api.kubeconfig, ['-n', 'kc', 'create', '-f', '-'], deployment);
  }, 60_000);
  afterAll(async () => {
    await api?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('edit', () => {
    it('saves what the editor changed', async () => {
      const r = await edit('valid', '4', 'deployment', 'app');
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe('deployment.apps/app edited');
      expect(r.calls).toHaveLength(1);
      // kubectl hands the editor the live object as YAML under its instructions
      expect(r.calls[0]).toMatch(
        /^# Please edit the object below\. Lines beginning with a '#' will be ignored,/,
      );
      expect(r.calls[0]).toMatch(/^kind: Deployment$/m);
      const d = await json('deployment', 'app');
      expect(d.spec.replicas).toBe(4);
      expect(d.metadata.labels).toEqual({ app: 'app', edited: 'true' });
      expect(d.metadata.generation).toBe(2);
      const table = await k('get', 'deployment', 'app');
      expect(table).toMatch(/^app\s+0\/4\s+0\s+0\s+\d+s$/m);
    });

    it("reports the server's validation error and re-opens the editor with it", async () => {
      const r = await edit('invalid', '-1', 'deployment', 'app');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('error: deployments.apps "app" is invalid');
      const copy = /A copy of your changes has been stored to "([^"]+)"/.exec(r.stderr)?.[1];
      expect(copy && readFileSync(copy, 'utf8')).toMatch(/^ {2}replicas: -1$/m);
      expect(r.stderr).toContain('error: Edit cancelled, no valid changes were saved.');
      // the second time the editor opens, the file starts with the server's field errors
      expect(r.calls).toHaveLength(2);
      expect(r.calls[1]).toContain('# deployments.apps "app" was not valid:');
      expect(r.calls[1]).toContain(
        '# * spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      );
      expect(r.calls[1]).toMatch(/^ {2}replicas: -1$/m);
      expect((await json('deployment', 'app')).spec.replicas).toBe(4);
    });

    it('cancels when the editor changes nothing', async () => {
      const r = await edit('unchanged', '', 'deployment', 'app');
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('Edit cancelled, no changes made.');
      expect((await json('deployment', 'app')).metadata.generation).toBe(2);
    });
  });

  describe('patch --type strategic', () => {
    const containers = async () => (await json('deployment', 'app')).spec.template.spec.containers;
    const strategic = (patch: unknown) =>
      kubectl(api.kubeconfig, [
        '-n',
        'kc',
        'patch',
        'deployment',
        'app',
        '--type',
        'strategic',
        '-p',
        JSON.stringify(patch),
      ]);
    const podSpec = (spec: unknown) => ({ spec: { template: { spec } } });

    it('removes a list item by its merge key with $patch: delete', async () => {
      const r = await strategic(podSpec({ containers: [{ name: 'sidecar', $patch: 'delete' }] }));
      expect(r.stdout.trim()).toBe('deployment.apps/app patched');
      const after = await containers();
      expect(after.map((c: { name: string }) => c.name)).toEqual(['app']);
      expect(after[0].env).toEqual([
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
        { name: 'C', value: '3' },
      ]);
    });

    it('removes a nested list item and leaves its siblings in order', async () => {
      await strategic(podSpec({ containers: [{ name: 'app', env: [{ name: 'B', $patch: 'delete' }] }] }));
      expect((await containers())[0].env).toEqual([
        { name: 'A', value: '1' },
        { name: 'C', value: '3' },
      ]);
    });

    it('removes primitive list values with $deleteFromPrimitiveList', async () => {
      await strategic({ metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } });
      expect((await json('deployment', 'app')).metadata.finalizers).toEqual(['example.com/b']);
    });

    it('changes nothing when the item to delete is absent', async () => {
      const r = await strategic(podSpec({ containers: [{ name: 'missing', $patch: 'delete' }] }));
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe('deployment.apps/app patched (no change)');
    });

    it('rejects a delete directive without the merge key', async () => {
      const r = await strategic(podSpec({ containers: [{ $patch: 'delete' }] }));
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(
        'Error from server (BadRequest): map: map[$patch:delete] does not contain declared merge key: name',
      );
    });
  });

  describe('get -w', () => {
    const watchers: ChildProcess[] = [];
    afterEach(() => {
      for (const w of watchers.splice(0)) w.kill();
    });

    /** Starts `kubectl get -w` and returns a reader of the lines it printed so far. */
    const watch = (...args: string[]) => {
      const child = spawn('kubectl', kubectlArgs(api.kubeconfig, ['-n', 'kc', 'get', ...args, '-w']), {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      watchers.push(child);
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      return {
        /**
         * The printed lines split into cells (kubectl separates cells by at least two spaces); only
         * whole lines count, as a line may reach the pipe in two writes.
         */
        rows: () =>
          out
            .slice(0, out.lastIndexOf('\n') + 1)
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map((l) => l.trim().split(/\s{2,}/)),
        async until(done: (rows: string[][]) => boolean, what: string) {
          const deadline = Date.now() + 15_000;
          while (!done(this.rows())) {
            if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got:\n${out}`);
            await new Promise((r) => setTimeout(r, 100));
          }
        },
      };
    };

    it('prints table rows as pods are created, updated and deleted', async () => {
      // kubectl lists, prints, then watches from the list's version: once it printed the pod that
      // was there first, it sees every later change, however long it took to start
      await k('run', 'w0', '--image=busybox:1.36', '--labels=watch=me');
      const plain = watch('pods', '-l', 'watch=me');
      const wide = watch('pods', '-l', 'watch=me', '-o', 'wide', '--output-watch-events');
      await plain.until((rows) => rows.length >= 2, 'the listed pod');
      await wide.until((rows) => rows.length >= 2, 'the listed pod');
      await k('run', 'w1', '--image=busybox:1.36', '--labels=watch=me');
      await plain.until((rows) => rows.length >= 3, 'the created pod');
      await k(
        'patch',
        'pod',
        'w1',
        '--subresource=status',
        '--type=merge',
        '-p',
        JSON.stringify({ status: { podIP: '10.1.0.9', podIPs: [{ ip: '10.1.0.9' }] } }),
      );
      await k('delete', 'pod', 'w1', '--wait=false');
      await wide.until((rows) => rows.some((r) => r[0] === 'DELETED'), 'the deletion');
      await plain.until((rows) => rows.length >= 5, 'the update and the deletion');

      const [header, listed, ...rows] = plain.rows();
      expect(header).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
      expect(listed!.slice(0, 4)).toEqual(['w0', '0/1', 'Pending', '0']);
      expect(rows.length).toBeGreaterThanOrEqual(3);
      for (const row of rows) {
        expect(row.slice(0, 4)).toEqual(['w1', '0/1', 'Pending', '0']);
        expect(row[4]).toMatch(/^\d+s$/);
      }

      const [wideHeader, wideListed, ...events] = wide.rows();
      expect(wideListed!.slice(0, 2)).toEqual(['ADDED', 'w0']);
      expect(wideHeader).toEqual([
        'EVENT',
        'NAME',
        'READY',
        'STATUS',
        'RESTARTS',
        'AGE',
        'IP',
        'NODE',
        'NOMINATED NODE',
        'READINESS GATES',
      ]);
      expect(events.map((e) => e[0])).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
      expect(events[0]!.slice(1, 5)).toEqual(['w1', '0/1', 'Pending', '0']);
      expect(events[0]!.slice(6)).toEqual(['<none>', '<none>', '<none>', '<none>']);
      expect(events[1]!.slice(6)).toEqual(['10.1.0.9', '<none>', '<none>', '<none>']);
      expect(events[2]!.slice(6)).toEqual(['10.1.0.9', '<none>', '<none>', '<none>']);
    });

    it('prints the current rows first, then changes, for a watch on a listed kind', async () => {
      await k('create', 'configmap', 'seen', '--from-literal=a=1');
      const w = watch('configmaps', 'seen');
      await w.until((rows) => rows.length >= 2, 'the listed config map');
      await k('patch', 'configmap', 'seen', '--type=merge', '-p', '{"data":{"b":"2"}}');
      await w.until((rows) => rows.length >= 3, 'the update');
      const [header, first, second] = w.rows();
      expect(header).toEqual(['NAME', 'DATA', 'AGE']);
      expect(first!.slice(0, 2)).toEqual(['seen', '1']);
      expect(second!.slice(0, 2)).toEqual(['seen', '2']);
    });
  });
});
