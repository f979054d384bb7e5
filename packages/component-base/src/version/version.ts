/** The shape of Kubernetes' /version answer. */
export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };

/**
 * The version of every orch daemon and the apiserver's /version. Clients choose their behaviour by the
 * minor version (kubectl releases are picked by it), so it names the Kubernetes API release whose
 * clients orch serves unchanged.
 */
export const version: Readonly<VersionInfo> = Object.freeze({
  major: '1',
  minor: '29',
  gitVersion: 'v1.29.0',
  gitCommit: process.env.ORCH_GIT_COMMIT ?? '0000000000000000000000000000000000000000',
  gitTreeState: process.env.ORCH_GIT_TREE_STATE ?? 'clean',
  buildDate: process.env.ORCH_BUILD_DATE ?? '1970-01-01T00:00:00Z',
  goVersion: process.version,
  compiler: 'tsc',
  platform: `${process.platform}/${GO_ARCH[process.arch] ?? process.arch}`,
});

/** The `--version` output: `orch v1.29.0`, or the whole object for `--version=raw`. */
export function versionText(mode: string, info: VersionInfo = version): string {
  if (mode === 'raw') return `${JSON.stringify(info, null, 2)}\n`;
  return `orch ${info.gitVersion}\n`;
}
