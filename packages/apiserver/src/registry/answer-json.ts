/**
 * JSON answers of objects stores hand out, kept with the object: the bytes `JSON.stringify(obj) +
 * '\n'` gives. A store sets them for objects it has just written, put together from the encoding
 * written to storage so the object is not serialized twice; for objects shared read-only by every
 * reader (a store's listed objects) they are made once, on first use. Valid as long as the object is
 * not changed, which holds for both.
 */
const answers = new WeakMap<object, Buffer>();
const shared = new WeakSet<object>();

export function setAnswerJSON(obj: object, body: Buffer): void {
  answers.set(obj, body);
}

/**
 * Marks `obj` as shared and never changed: its JSON answer, once made, is kept with it. With
 * `ORCH_CACHE_MUTATION_DETECTOR=true` (the test suite's setting) the object is frozen, all the way
 * down, so code that changes a shared object fails where it does, as Kubernetes'
 * KUBE_CACHE_MUTATION_DETECTOR makes it fail.
 */
export function markShared(obj: object): void {
  shared.add(obj);
  if (detectMutations) deepFreeze(obj);
}

const detectMutations = process.env.ORCH_CACHE_MUTATION_DETECTOR === 'true';

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value))
    return;
  Object.freeze(value);
  for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
}

/** The JSON answer of `obj` when it is known or `obj` is shared (see {@link markShared}). */
export function answerJSON(obj: object): Buffer | undefined {
  let body = answers.get(obj);
  if (!body && shared.has(obj)) answers.set(obj, (body = Buffer.from(JSON.stringify(obj) + '\n')));
  return body;
}
