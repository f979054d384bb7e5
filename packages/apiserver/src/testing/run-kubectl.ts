import { execFile } from 'node:child_process';

/** What a kubectl run printed: its exit code and trimmed standard output, and its standard error. */
export interface KubectlResult {
  code: number;
  out: string;
  err: string;
}

/** Runs the kubectl on PATH against `kubeconfig`; a failing run resolves with its exit code. */
export function runKubectl(kubeconfig: string, ...args: string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
        out: stdout.trim(),
        err: stderr,
      }),
    );
  });
}
