import * as path from 'node:path';

export interface UserAgentOptions {
  /** Program name; defaults to the basename of the running script without extension. */
  command?: string;
  version?: string;
  commit?: string;
  platform?: string;
  arch?: string;
}

const archNames: Record<string, string> = { x64: 'amd64', ia32: '386', arm: 'arm', arm64: 'arm64' };

/** A client-go style user agent: `orch-scheduler/v1.20.0 (linux/amd64) orch/abc1234`. */
export function buildUserAgent(opts: UserAgentOptions = {}): string {
  const script = process.argv[1] ? path.basename(process.argv[1]).replace(/\.[cm]?js$/, '') : 'node';
  const command = opts.command ?? script;
  const version = opts.version ?? 'v0.0.0';
  const platform = opts.platform ?? process.platform;
  const arch = opts.arch ?? archNames[process.arch] ?? process.arch;
  const commit = opts.commit ?? 'unknown';
  return `${command}/${version} (${platform}/${arch}) orch/${commit}`;
}
