import { version, versionText } from './version';

describe('version', () => {
  it('has the shape of Kubernetes /version', () => {
    expect(Object.keys(version).sort()).toEqual(
      [
        'buildDate',
        'compiler',
        'gitCommit',
        'gitTreeState',
        'gitVersion',
        'goVersion',
        'major',
        'minor',
        'platform',
      ].sort(),
    );
    expect(version).toMatchObject({
      major: '1',
      minor: '29',
      gitVersion: 'v1.29.0',
      goVersion: process.version,
    });
    expect(version.platform).toMatch(/^[a-z0-9]+\/[a-z0-9]+$/);
    expect(version.buildDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('prints for --version and --version=raw', () => {
    expect(versionText('true')).toBe('orch v1.29.0\n');
    expect(JSON.parse(versionText('raw'))).toEqual(version);
  });
});
