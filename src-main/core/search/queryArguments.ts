// What in a query is an argument of the call rather than words that name the tool: quoted strings
// ("The Curious Case of the Talking Animals" names a book, not a legal case) and bare numbers. A
// query that is nothing but arguments is searched as written, so it never comes back empty. The
// sentence model reads a query without its quoted spans but with its numbers ("a 30 minute call").

/** A quoted span: straight or typographic double quotes (\u201c \u201d, \u201e, \u00ab \u00bb), or single quotes
 *  that open and close a span (not the apostrophe of "what's"). Bounded: a quote with no partner is left
 *  as it is. Written as escapes: the CLI's bundle must be ASCII (scripts/cliBundle.ts). */
const QUOTED =
  /"[^"\n]{1,200}"|\u201c[^\u201d\n]{1,200}\u201d|\u201e[^\u201c\u201d\n]{1,200}[\u201c\u201d]|\u00ab[^\u00bb\n]{1,200}\u00bb|(?<![\p{L}\p{N}])'(?=\S)[^'\n]{1,200}(?<=\S)'(?![\p{L}\p{N}])/gu;
/** A number on its own (an amount, a count, an id): `PR 42` keeps `pr`, `4411` names no tool. */
const NUMBER = /(?<![\p{L}\p{N}_.-])\d[\d.,:]*(?![\p{L}\p{N}_-])/gu;

/** The query without its arguments (quoted spans, bare numbers); the query itself if that leaves no words. */
export function withoutArguments(query: string): string {
  const rest = query.replace(QUOTED, ' ').replace(NUMBER, ' ');
  return /[\p{L}]/u.test(rest) ? rest : query.replace(/["\u201c\u201d\u201e\u00ab\u00bb]/g, ' ');
}

/** What the sentence model reads of a query: without its quoted spans (a title's meaning is not the tool's); the query if that leaves no words. */
export function withoutQuotedSpans(query: string): string {
  const rest = query.replace(QUOTED, ' ').replace(/\s+/g, ' ').trim();
  return /[\p{L}]/u.test(rest) ? rest : query;
}
