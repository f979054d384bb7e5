import type { VersionInfo } from './apiserver';

/** The Kubernetes release whose API orch serves; clients pick their behaviour by this minor version. */
export const servedKubernetesVersion = { major: '1', minor: '29' };

/** The /version document of this build. */
export function orchVersion(): VersionInfo {
  const { major, minor } = servedKubernetesVersion;
  return {
    major,
    minor,
    gitVersion: `v${major}.${minor}.0-orch.0`,
    gitCommit: process.env.ORCH_GIT_COMMIT ?? '',
    gitTreeState: process.env.ORCH_GIT_COMMIT ? 'clean' : '',
    buildDate: '',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
