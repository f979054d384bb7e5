export { strategicMergePatch, supportsStrategicMerge } from './strategic-merge-patch';
export { createTwoWayMergePatch, createThreeWayMergePatch } from './create-merge-patch';
export { StrategicMergeError } from './strategic-merge-error';
export type { StrategicMergeErrorClass } from './strategic-merge-error';
export { cloneJson, isMap } from './json-value';
