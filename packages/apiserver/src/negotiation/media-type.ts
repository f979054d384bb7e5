/** One entry of an Accept or Content-Type header: `type/subtype;param=value` with its quality. */
export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/** Parses a Content-Type value; undefined when malformed. */
export function parseMediaType(value: string): MediaRange | undefined {
  const [full, ...rawParams] = value.split(';');
  const [type, subtype] = (full ?? '').trim().toLowerCase().split('/');
  if (!type || !subtype) return undefined;
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of rawParams) {
    const i = p.indexOf('=');
    if (i < 0) continue;
    const k = p.slice(0, i).trim().toLowerCase();
    const v = p
      .slice(i + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (k === 'q') q = Number(v);
    else params[k] = v;
  }
  return { type, subtype, params, q: Number.isFinite(q) ? q : 0 };
}

/** Parses an Accept header into its ranges, best first (stable for equal quality). */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || !header.trim()) return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const r = parseMediaType(part);
    if (r && r.q > 0) ranges.push(r);
  }
  return ranges
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.q - a.r.q || a.i - b.i)
    .map((x) => x.r);
}

export function mediaTypeName(r: MediaRange): string {
  return `${r.type}/${r.subtype}`;
}
