// The config file's JSON syntax errors in a person's terms: line and column, not V8's character offset.

/** Line and column (both from 1) of a character offset in `text`. */
export function placeOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** JSON.parse's complaint made a sentence part: "Expected ',' or '}' after property value on line 3, column 5". */
export function jsonProblem(text: string, err: unknown): string {
  const message = (err as Error)?.message ?? String(err);
  const at = /\s*(?:in JSON )?at position (\d+)(?:\s*\(line \d+ column \d+\))?/.exec(message);
  const offset = at ? Number(at[1]) : /end of JSON input/.test(message) ? text.length : undefined;
  const what = (at ? message.slice(0, at.index) + message.slice(at.index + at[0].length) : message)
    .replace(/\s*in JSON$/, '')
    .replace(/^Unexpected end of JSON input$/, 'the file ends too early')
    .trim();
  if (offset === undefined) return what;
  const { line, column } = placeOf(text, offset);
  return `${what} on line ${line}, column ${column}`;
}
