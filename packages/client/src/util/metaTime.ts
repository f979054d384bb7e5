/** RFC 3339 with seconds precision (meta/v1 Time). */
export function formatTime(d: Date | number): string {
  return new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** RFC 3339 with microseconds (meta/v1 MicroTime). */
export function formatMicroTime(d: Date | number): string {
  return new Date(d).toISOString().replace(/Z$/, '000Z');
}
