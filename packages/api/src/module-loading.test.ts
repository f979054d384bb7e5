import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// What loading the built package costs: every daemon imports @orch/api, most never validate an
// object, so the libraries only validation needs are loaded on first use.
const dist = join(__dirname, '..', 'dist');

/** Runs `body` in a fresh node after loading the package; returns the third-party packages loaded. */
function loadedPackages(body = ''): { packages: string[]; output: unknown } {
  const script = `
    const api = require(${JSON.stringify(dist)});
    const output = (() => { ${body} })();
    const packages = new Set();
    for (const file of Object.keys(require.cache)) {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
      if (m) packages.add(m[1]);
    }
    process.stdout.write(JSON.stringify({ packages: [...packages].sort(), output }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

describe('@orch/api module loading', () => {
  it('does not load TypeBox, ajv or cron-parser at import', () => {
    const { packages } = loadedPackages();
    expect(packages).not.toContain('@sinclair/typebox');
    expect(packages).not.toContain('ajv');
    expect(packages).not.toContain('cron-parser');
  });

  it('loads the validators’ libraries when a kind is validated, with the same results', () => {
    const { packages, output } = loadedPackages(`
      const kind = api.allKinds.find((k) => k.kind === 'CronJob');
      const compiled = api.compileKind(kind);
      const cronJob = {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'nightly', namespace: 'default' },
        spec: {
          schedule: '61 * * * *',
          jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } },
        },
      };
      compiled.default(cronJob);
      return compiled.validate(cronJob).map((e) => e.field + ': ' + e.type);
    `);
    expect(packages).toEqual(expect.arrayContaining(['ajv']));
    // schedules are checked by the project's own reading of cron fields
    expect(packages).not.toContain('cron-parser');
    expect(packages).not.toContain('@sinclair/typebox');
    expect(output).toEqual(['spec.schedule: FieldValueInvalid']);
  });
});
