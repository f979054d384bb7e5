/**
 * The five fields of a CronJob schedule (minute, hour, day of month, month, day of week) as
 * Kubernetes' cron parser reads them (robfig/cron's standard parser): each a comma-separated list of
 * `*` or `?`, a number or name, or a range `a-b`, each with an optional `/step`; `N/step` runs from N
 * to the field's maximum. Nothing else: no `L`, `W` or `#`, and day of week ends at 6 (Saturday).
 * A schedule whose days never come (`0 0 31 2 *`) is valid: it never runs.
 */

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const months: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const days: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const fieldBounds: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: months },
  { min: 0, max: 6, names: days },
];

/** Go's strconv.Atoi on a field's text, with the parser's messages. */
function parseNumber(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text)) {
    throw new Error(`failed to parse int from ${text}: strconv.Atoi: parsing "${text}": invalid syntax`);
  }
  const n = Number(text);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${text}`);
  return n;
}

function parseNumberOrName(text: string, names: Record<string, number> | undefined): number {
  const named = names?.[text.toLowerCase()];
  return named ?? parseNumber(text);
}

/** One range of a field (robfig's getRange), checked against the field's bounds. */
function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseNumberOrName(lowAndHigh[0]!, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseNumberOrName(lowAndHigh[1]!, r.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseNumber(rangeAndStep[1]!);
    if (lowAndHigh.length === 1 && lowAndHigh[0] !== '*' && lowAndHigh[0] !== '?') end = r.max;
  } else if (rangeAndStep.length > 2) throw new Error(`too many slashes: ${expr}`);
  if (start < r.min) throw new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
}

/**
 * Checks five cron fields; throws with the parser's message for the first field it cannot read.
 * `fields` are the schedule's fields, already split on spaces.
 */
export function checkCronFields(fields: readonly string[]): void {
  fields.forEach((field, i) => {
    for (const expr of field.split(',')) if (expr !== '') checkRange(expr, fieldBounds[i]!);
  });
}
