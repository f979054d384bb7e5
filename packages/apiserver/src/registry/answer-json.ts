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

/** Marks `obj` as shared and never changed: its JSON answer, once made, is kept with it. */
export function markShared(obj: object): void {
  shared.add(obj);
}

/** The JSON answer of `obj` when it is known or `obj` is shared (see {@link markShared}). */
export function answerJSON(obj: object): Buffer | undefined {
  let body = answers.get(obj);
  if (!body && shared.has(obj)) answers.set(obj, (body = Buffer.from(JSON.stringify(obj) + '\n')));
  return body;
}
