/**
 * JSON answers known for objects a store has just written, kept with the object: the bytes
 * `JSON.stringify(obj) + '\n'` gives, put together from the encoding written to storage so the
 * object is not serialized twice. Valid as long as the object is not changed, which holds for the
 * objects stores answer with (they are shared read-only).
 */
const answers = new WeakMap<object, Buffer>();

export function setAnswerJSON(obj: object, body: Buffer): void {
  answers.set(obj, body);
}

/** The JSON answer known for `obj`, if any (see {@link setAnswerJSON}). */
export function answerJSON(obj: object): Buffer | undefined {
  return answers.get(obj);
}
