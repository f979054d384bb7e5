import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * kubectl's arguments for a kubeconfig: the kubeconfig, and a discovery and HTTP cache of its own
 * beside it. kubectl's default cache (~/.kube/cache) is keyed by host and port, and a test server may
 * get the port an earlier one had, with other APIs.
 */
export function kubectlArgs(kubeconfig: string, args: string[]): string[] {
  return ['--kubeconfig', kubeconfig, '--cache-dir', join(dirname(kubeconfig), '.kube-cache'), ...args];
}

/**
 * Runs the stock kubectl on PATH with a kubeconfig (and optional stdin and extra environment, e.g.
 * KUBE_EDITOR), bounded in time.
 */
export function kubectl(
  kubeconfig: string,
  args: string[],
  input?: string,
  timeoutMs = 60_000,
  env: Record<string, string> = {},
): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', kubectlArgs(kubeconfig, args), {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, KUBECONFIG: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

/** Runs kubectl and fails with its output when it exits non-zero. */
export async function kubectlOK(kubeconfig: string, args: string[], input?: string): Promise<string> {
  const r = await kubectl(kubeconfig, args, input);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr || r.stdout}`);
  return r.stdout;
}
