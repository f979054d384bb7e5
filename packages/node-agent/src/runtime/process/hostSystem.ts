import { readFileSync } from 'node:fs';
import { release } from 'node:os';
import type { NodeSystem } from '../../node/nodeObjects';

/** The container runtime version the process runtime's nodes report. */
export const PROCESS_RUNTIME_VERSION = 'orch-process://1.0';

/** The PRETTY_NAME of an os-release file's content, else undefined. */
export function osReleaseName(content: string): string | undefined {
  const line = content.split('\n').find((l) => l.startsWith('PRETTY_NAME='));
  if (!line) return undefined;
  const value = line.slice('PRETTY_NAME='.length).trim();
  return value.replace(/^(["'])(.*)\1$/, '$2') || undefined;
}

/**
 * The system of this host, which the process runtime's containers run on: its kernel release and OS
 * (os-release's PRETTY_NAME, as the kubelet reports osImage), and the process runtime.
 */
export function hostSystem(): NodeSystem {
  let osImage: string | undefined;
  for (const file of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      osImage = osReleaseName(readFileSync(file, 'utf8'));
      if (osImage) break;
    } catch {
      // not there: the next one
    }
  }
  return {
    kernelVersion: release(),
    osImage: osImage ?? 'Linux',
    containerRuntimeVersion: PROCESS_RUNTIME_VERSION,
  };
}
