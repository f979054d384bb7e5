export * from './pki';
export * from './kubeconfig-file';
export * from './cluster-pki';
export * from './certificate-request';
