import { release } from 'node:os';
import { hostSystem, osReleaseName, PROCESS_RUNTIME_VERSION } from './hostSystem';

describe('hostSystem', () => {
  it("reads os-release's PRETTY_NAME, quoted or not", () => {
    expect(
      osReleaseName('NAME="Debian GNU/Linux"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n'),
    ).toBe('Debian GNU/Linux 12 (bookworm)');
    expect(osReleaseName("PRETTY_NAME='Alpine Linux v3.20'")).toBe('Alpine Linux v3.20');
    expect(osReleaseName('PRETTY_NAME=Plain\n')).toBe('Plain');
    expect(osReleaseName('NAME=x\n')).toBeUndefined();
  });

  it('reports this host’s kernel and the process runtime', () => {
    const system = hostSystem();
    expect(system.kernelVersion).toBe(release());
    expect(system.containerRuntimeVersion).toBe(PROCESS_RUNTIME_VERSION);
    expect(system.osImage).not.toBe('');
  });
});
