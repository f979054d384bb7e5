/**
 * The command-line flags of a daemon serving on loopback with delegated authentication and
 * authorization, as `npm start` and the tests run the scheduler, the controller managers and the
 * node agent: `kubeconfig` for its apiserver client and for both reviews, its secure `port` on
 * 127.0.0.1, and `certDir` for its self-signed serving certificate.
 */
export function loopbackDaemonArgs(kubeconfig: string, port: number, certDir: string): string[] {
  return [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${certDir}`,
  ];
}
