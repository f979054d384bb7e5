/**
 * The simple JSON paths of CRDs (`.spec.replicas`, `.status.conditions[0].type`, `.metadata.labels.app`):
 * what additionalPrinterColumns and the scale subresource's paths name.
 */
export function jsonPathSegments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path)) !== null) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(m[3] ?? m[4] ?? '');
  }
  return out;
}

/** The value at a simple JSON path, undefined when some step is missing. */
export function getAtJSONPath(obj: unknown, path: string): unknown {
  let cur: any = obj;
  for (const seg of jsonPathSegments(path)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = cur[seg as keyof typeof cur];
  }
  return cur;
}

/** Sets the value at a simple JSON path, making the objects on the way. */
export function setAtJSONPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const segs = jsonPathSegments(path);
  let cur: any = obj;
  segs.forEach((seg, i) => {
    if (i === segs.length - 1) cur[seg] = value;
    else {
      if (cur[seg] === null || typeof cur[seg] !== 'object') cur[seg] = {};
      cur = cur[seg];
    }
  });
}
