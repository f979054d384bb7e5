/** kubectl's human-readable table: the header names and each row's cells. */
export interface TableOutput {
  header: string[];
  rows: string[][];
}

/**
 * Splits kubectl's tab-aligned output into cells. kubectl pads every column but the last with at
 * least three spaces, so the header's runs of two or more spaces separate column names (which may hold
 * single spaces, e.g. NOMINATED NODE); every cell starts where its column's name starts, which keeps
 * empty cells and cells with spaces (a cron schedule) in their place.
 */
export function parseTable(text: string): TableOutput {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return { header: [], rows: [] };
  const headerLine = lines[0]!;
  const starts: number[] = [];
  const header: string[] = [];
  for (const m of headerLine.matchAll(/\S+(?: \S+)*/g)) {
    starts.push(m.index);
    header.push(m[0]);
  }
  const rows = lines
    .slice(1)
    .map((line) => starts.map((s, i) => line.slice(s, starts[i + 1] ?? line.length).trim()));
  return { header, rows };
}

/** The row whose cell in column `column` is `value`. */
export function rowWhere(table: TableOutput, column: string, value: string): string[] | undefined {
  const i = table.header.indexOf(column);
  return table.rows.find((r) => r[i] === value);
}
