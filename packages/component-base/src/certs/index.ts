export * from './pki';
export * from './kubeconfig-file';
