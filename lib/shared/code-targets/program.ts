/**
 * The request a language target writes as a program, and what every target shares: the comment at the top and
 * the values a program holds. Each target (one file per language) owns the one function that turns text into a
 * literal of its language; everything a value reaches goes through it.
 */
import {
  makesUuid,
  readsJson,
  variablesIn,
  type Piece,
  type SampleVariable,
  type Value,
} from "../code-samples-values";

export interface Program {
  method: string;
  url: string;
  headers: Array<[name: string, value: Piece[]]>;
  /** Null without a body. */
  body: Piece[] | null;
  /** The token request to make first (languages that can): ACCESS_TOKEN then comes from its answer. */
  token: Program | null;
  /** Lines for the comment at the top, already made safe for a comment (commentSafe). */
  notes: string[];
}

export type Target = (program: Program) => string;

/** How one language writes a value's pieces: a literal, a fresh id, a read, a read made a JSON string, the join. */
export interface ExpressionSyntax {
  literal: (text: string) => string;
  uuid: string;
  read: (name: string) => string;
  json: (read: string) => string;
  join: string;
  /** The empty value (no pieces). */
  empty: string;
}

/** A value as one expression of the language: its pieces in order, each text through the language's literal. */
export function valueExpression(value: Piece[], syntax: ExpressionSyntax): string {
  const parts = value.map((piece) => {
    if ("text" in piece) return syntax.literal(piece.text);
    if ("uuid" in piece) return syntax.uuid;
    const read = syntax.read(piece.read);
    return piece.as === "json" ? syntax.json(read) : read;
  });
  return parts.join(syntax.join) || syntax.empty;
}

/** Every value the program and its token request hold. */
function valuesOf(program: Program): Value[] {
  const own = [...program.headers.map(([, value]) => value), ...(program.body ? [program.body] : [])];
  return program.token ? [...own, ...valuesOf(program.token)] : own;
}

/** The variables read from the environment: with a token request first, ACCESS_TOKEN comes from its answer. */
export function environmentReads(program: Program): SampleVariable[] {
  const reads = variablesIn(valuesOf(program));
  return program.token ? reads.filter((name) => name !== "ACCESS_TOKEN") : reads;
}

export const needsJson = (program: Program) => readsJson(valuesOf(program));
export const needsUuid = (program: Program) => makesUuid(valuesOf(program));

/** The comment's lines, each to be prefixed by the language's line-comment marker. */
export function commentLines(program: Program): string[] {
  const reads = environmentReads(program);
  return [
    ...(reads.length > 0 ? [`Reads ${reads.join(", ")} from the environment; stops if one is empty.`] : []),
    ...program.notes,
    ...(needsUuid(program)
      ? ["A fresh X-Request-Id per run: the same one twice is a 409 duplicate_request_id."]
      : []),
  ];
}

/**
 * Text fit for a line comment in every language: printable ASCII without backslashes (Java reads `\u` escapes
 * even in comments), `?>` (ends PHP) or anything else that could end a comment.
 */
export function commentSafe(note: string): string {
  return note.replace(/[^\w .,:;=()*/'+@-]/g, "?");
}

/** Splits a string into runs of characters matching `special` (one each) and runs of the others. */
export function splitRuns(text: string, special: RegExp): string[] {
  return text.split(special).filter((part) => part !== "");
}

export const hex = (code: number, width: number) => code.toString(16).toUpperCase().padStart(width, "0");

/** One line of code per line of the body: `join` ends each line but the last. */
export function joinLines(parts: string[], join: string, indent: string): string {
  return parts.length === 0 ? "" : parts.join(`${join}\n${indent}`);
}
