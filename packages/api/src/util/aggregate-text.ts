/**
 * The text of Kubernetes' error aggregate (utilerrors.NewAggregate): one message as it is, several as
 * `[a, b]` with each distinct message once.
 */
export function aggregateText(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
