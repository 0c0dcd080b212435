/**
 * A value in generated code: text to write as data, joined with what the program itself supplies when it runs
 * (a variable read from the environment, a fresh UUID). What the program reads is never text, so no value from
 * a run can become a read by looking like one (docs/design.md §12).
 */

/** What a sample reads from the environment: never written into the code. */
const SAMPLE_VARIABLES = ["ACCESS_TOKEN", "CLIENT_ID", "CLIENT_SECRET", "CARD_NUMBER"] as const;
export type SampleVariable = (typeof SAMPLE_VARIABLES)[number];

export type Piece =
  | { text: string }
  /** The variable's value, as it is (`text`) or as a JSON string, quoted and escaped when the program runs. */
  | { read: SampleVariable; as: "text" | "json" }
  /** A fresh UUID made when the program runs (a Gift Balance Inquiry's X-Request-Id). */
  | { uuid: true };

/** Text and reads in order. */
export type Value = readonly Piece[];

export const text = (value: string): Piece => ({ text: value });
export const read = (variable: SampleVariable, as: "text" | "json" = "text"): Piece => ({
  read: variable,
  as,
});
export const FRESH_UUID: Value = [{ uuid: true }];
/** `Bearer <ACCESS_TOKEN>`: the Authorization header of a sample. */
export const BEARER: Value = [text("Bearer "), read("ACCESS_TOKEN")];

/** A lone surrogate cannot be sent as UTF-8: it is written as U+FFFD, as every encoder on the way would. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Adjacent text joined, empty text left out, lone surrogates replaced: the form every language writes. */
export function normalize(value: Value | string): Piece[] {
  const pieces: Piece[] = [];
  for (const piece of typeof value === "string" ? [text(value)] : value) {
    if (!("text" in piece)) pieces.push(piece);
    else if (piece.text === "") continue;
    else {
      const last = pieces.at(-1);
      const clean = piece.text.replace(LONE_SURROGATE, "\uFFFD");
      if (last && "text" in last) pieces[pieces.length - 1] = text(last.text + clean);
      else pieces.push(text(clean));
    }
  }
  return pieces;
}

/** A value split after each line feed, for languages that write a body one line of code per line. */
export function lines(value: Value): Piece[][] {
  const result: Piece[][] = [[]];
  for (const piece of value) {
    if (!("text" in piece)) {
      result.at(-1)!.push(piece);
      continue;
    }
    const parts = piece.text.split(/(?<=\n)/);
    parts.forEach((part, index) => {
      if (index > 0) result.push([]);
      result.at(-1)!.push(text(part));
    });
  }
  return result.filter((line) => line.length > 0);
}

/**
 * `value` as JSON text, the same bytes as `JSON.stringify(value, null, 2)`, except that a string for which
 * `leaf` answers a piece is that piece (e.g. CARD_NUMBER read as a JSON string).
 */
export function jsonValue(
  value: unknown,
  leaf: (key: string | null, value: string) => Piece | null = () => null,
): Piece[] {
  const out: Piece[] = [];
  const write = (item: unknown, key: string | null, indent: string) => {
    if (typeof item === "string") {
      out.push(leaf(key, item) ?? text(JSON.stringify(item)));
      return;
    }
    const inner = `${indent}  `;
    if (Array.isArray(item)) {
      if (item.length === 0) return void out.push(text("[]"));
      item.forEach((element, index) => {
        out.push(text(`${index === 0 ? "[" : ","}\n${inner}`));
        write(element ?? null, null, inner);
      });
      return void out.push(text(`\n${indent}]`));
    }
    if (typeof item === "object" && item !== null) {
      const entries = Object.entries(item).filter(([, child]) => child !== undefined);
      if (entries.length === 0) return void out.push(text("{}"));
      entries.forEach(([childKey, child], index) => {
        out.push(text(`${index === 0 ? "{" : ","}\n${inner}${JSON.stringify(childKey)}: `));
        write(child, childKey, inner);
      });
      return void out.push(text(`\n${indent}}`));
    }
    out.push(text(JSON.stringify(item) ?? "null"));
  };
  write(value, null, "");
  return normalize(out);
}

/** The variables a value reads, in the order of SAMPLE_VARIABLES. */
export function variablesIn(values: readonly Value[]): SampleVariable[] {
  const used = new Set(
    values.flatMap((value) => value.flatMap((piece) => ("read" in piece ? [piece.read] : []))),
  );
  return SAMPLE_VARIABLES.filter((variable) => used.has(variable));
}

export const readsJson = (values: readonly Value[]) =>
  values.some((value) => value.some((piece) => "read" in piece && piece.as === "json"));

export const makesUuid = (values: readonly Value[]) =>
  values.some((value) => value.some((piece) => "uuid" in piece));
