/**
 * Evaluation of the small functions the engines generate per struct when a kind is compiled (a
 * struct's fields are known then, so the generated code reads each by its literal name, a property
 * access the JavaScript engine caches per object shape). Generated sources contain only JSON
 * literals of declared field names and scalar defaults, indices and the names bound here; values
 * are passed in through `bindings`, never written into the source.
 */
export function evaluateGenerated<T>(source: string, bindings: Record<string, unknown>): T {
  const names = Object.keys(bindings);
  const factory = new Function(...names, source) as (...args: unknown[]) => T;
  return factory(...names.map((n) => bindings[n]));
}
