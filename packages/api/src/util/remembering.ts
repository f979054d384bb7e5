/**
 * `compute` with its answers remembered by argument, for a pure function called again and again
 * with the same few arguments. At most `kept` answers are held; the next one forgets them all. A call
 * that throws is not remembered.
 */
export function remembering<R>(compute: (key: string) => R, kept = 4096): (key: string) => R {
  const answers = new Map<string, R>();
  return (key) => {
    const known = answers.get(key);
    if (known !== undefined || answers.has(key)) return known as R;
    const answer = compute(key);
    if (answers.size >= kept) answers.clear();
    answers.set(key, answer);
    return answer;
  };
}
