/**
 * Kubernetes' `$(VAR_NAME)` expansion of env values, command and args: `$(NAME)` is replaced by the
 * variable's value when it is defined and stays as written otherwise; `$$` stands for one `$`, so
 * `$$(NAME)` gives the literal `$(NAME)`; a `$` before any other character, or a `$(` that is never
 * closed, stays as it is.
 */
export function expandEnv(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const next = input[cursor + 1];
    let advance = 1;
    if (next === '$') {
      out += '$';
    } else if (next === '(') {
      const close = input.indexOf(')', cursor + 2);
      if (close < 0) {
        out += '$(';
      } else {
        const name = input.slice(cursor + 2, close);
        out += lookup(name) ?? `$(${name})`;
        advance = close - cursor;
      }
    } else {
      out += `$${next}`;
    }
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}

/** `expandEnv` over a list (command or args) with the variables of `env`. */
export function expandAll(list: readonly string[], env: ReadonlyMap<string, string>): string[] {
  return list.map((s) => expandEnv(s, (name) => env.get(name)));
}
