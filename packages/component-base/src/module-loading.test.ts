import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// What loading the built package costs in every daemon: certificate generation (node-forge) and
// prom-client's default metrics (with the OpenTelemetry API) are not loaded unless used.
const dist = join(__dirname, '..', 'dist');

function run(body: string): { files: string[]; output: unknown } {
  const script = `
    const base = require(${JSON.stringify(dist)});
    Promise.resolve((async () => { ${body} })()).then((output) => {
      const files = Object.keys(require.cache).filter((f) => f.includes('node_modules'))
        .map((f) => f.slice(f.lastIndexOf('node_modules/') + 'node_modules/'.length));
      process.stdout.write(JSON.stringify({ files, output }));
    });
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

const loaded = (files: string[], pkg: string): boolean => files.some((f) => f.startsWith(`${pkg}/`));

describe('@orch/component-base module loading', () => {
  it('loads neither node-forge nor prom-client’s entry point at import', () => {
    const { files } = run('return null;');
    expect(loaded(files, 'node-forge')).toBe(false);
    expect(loaded(files, '@opentelemetry/api')).toBe(false);
    expect(files).not.toContain('prom-client/index.js');
    expect(files).toContain('prom-client/lib/registry.js');
  });

  it('loads node-forge when a certificate is made', () => {
    const { files, output } = run(`
      const { X509Certificate } = require('node:crypto');
      const pair = base.generateSelfSignedCertificate({ commonName: 'probe', ips: ['127.0.0.1'] });
      const cert = new X509Certificate(pair.cert);
      return { subject: cert.subject, san: cert.subjectAltName, matches: cert.checkPrivateKey(require('node:crypto').createPrivateKey(pair.key)) };
    `);
    expect(loaded(files, 'node-forge')).toBe(true);
    expect(output).toEqual({ subject: 'CN=probe', san: 'IP Address:127.0.0.1', matches: true });
  });

  it('serves metrics made with prom-client’s entry point from the daemons’ registry class', () => {
    const { output } = run(`
      const { Registry } = require(${JSON.stringify(join(dist, 'server', 'metricsRegistry'))});
      const { Counter } = require('prom-client');
      const registry = new Registry();
      new Counter({ name: 'probe_total', help: 'A probe.', registers: [registry] }).inc(3);
      return registry.metrics();
    `);
    expect(output).toContain('# TYPE probe_total counter\nprobe_total 3');
  });
});
