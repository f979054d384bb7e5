/** The kubeconfig file format (the subset the client understands). */

export interface KubeconfigCluster {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
}

export interface KubeconfigUser {
  token?: string;
  tokenFile?: string;
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  username?: string;
  password?: string;
}

export interface KubeconfigContext {
  cluster?: string;
  user?: string;
  namespace?: string;
}

export interface Named<T> {
  name: string;
  value: T;
}

/** A parsed kubeconfig, with relative file paths already made absolute. */
export interface Kubeconfig {
  clusters: Named<KubeconfigCluster>[];
  users: Named<KubeconfigUser>[];
  contexts: Named<KubeconfigContext>[];
  currentContext?: string;
}
