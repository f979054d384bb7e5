export { ReplicaSetController, podFromTemplate } from './replicaset/ReplicaSetController';
