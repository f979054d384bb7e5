/** RFC 7234 warning as Kubernetes writes it: `299 - "text"`. */
export function warningHeader(text: string): string {
  return `299 - ${JSON.stringify(text.replace(/[\r\n]/g, ' '))}`;
}
