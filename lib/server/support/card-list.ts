/**
 * Reads the card numbers of a support batch from pasted text or an uploaded CSV (DESIGN.md §9): one card per
 * line, or a `card_number` column (RFC 4180 quoting, a byte-order mark, CRLF/LF/CR line ends, a header row or
 * not). Spaces and dashes inside a number are tolerated. A line that holds no card number is reported with its
 * line number and never stops the rest. Pure and framework-free: the page can use it to preview a paste.
 */

export interface ListedCard {
  /** 1-based line of the input where the card's record starts. */
  line: number;
  /** 12 to 19 digits. */
  cardNumber: string;
}

export interface BadLine {
  line: number;
  message: string;
}

export interface CardList {
  cards: ListedCard[];
  /** The first `MAX_REPORTED_BAD_LINES` lines that held no card number, in order. */
  badLines: BadLine[];
  /** How many lines held no card number in all (may exceed `badLines.length`). */
  badLineCount: number;
  /** The header row's line when the input had one. */
  headerLine: number | null;
}

export const MAX_REPORTED_BAD_LINES = 200;

/** Header names that mark the card column (compared lower-case, spaces and dashes as `_`). */
const CARD_COLUMN_NAMES = new Set(["card_number", "cardnumber", "card", "card_no", "pan", "number"]);

const CARD_NUMBER = /^\d{12,19}$/;

/** Digits with spaces and dashes dropped, when that is a card number; null otherwise. */
export function normalizeCardNumber(value: string): string | null {
  const compact = value.replace(/[\s-]/g, "");
  return CARD_NUMBER.test(compact) ? compact : null;
}

interface CsvRecord {
  line: number;
  fields: string[];
}

/** RFC 4180 records with the line each starts on; a quoted field may span lines. Blank lines are skipped. */
export function* csvRecords(text: string): Generator<CsvRecord> {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let line = 1;
  let recordLine = 1;
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let fieldStarted = false;
  const length = input.length;
  const endRecord = function* (): Generator<CsvRecord> {
    fields.push(field);
    const blank = fields.length === 1 && fields[0]!.trim() === "" && !fieldStarted;
    if (!blank) yield { line: recordLine, fields };
    fields = [];
    field = "";
    fieldStarted = false;
  };
  for (let index = 0; index < length; index += 1) {
    const char = input[index]!;
    if (quoted) {
      if (char === '"') {
        if (input[index + 1] === '"') {
          field += '"';
          index += 1;
        } else quoted = false;
      } else {
        if (char === "\n" || (char === "\r" && input[index + 1] !== "\n")) line += 1;
        field += char;
      }
      continue;
    }
    if (char === '"' && field.trim() === "") {
      quoted = true;
      fieldStarted = true;
      field = "";
    } else if (char === ",") {
      fields.push(field);
      field = "";
      fieldStarted = true;
    } else if (char === "\r" || char === "\n") {
      if (char === "\r" && input[index + 1] === "\n") index += 1;
      yield* endRecord();
      line += 1;
      recordLine = line;
    } else {
      field += char;
    }
  }
  if (field !== "" || fields.length > 0 || fieldStarted) yield* endRecord();
}

function columnName(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** Parses a card list. Never throws on content: anything unusable is a bad line. */
export function parseCardList(text: string): CardList {
  const cards: ListedCard[] = [];
  const badLines: BadLine[] = [];
  let badLineCount = 0;
  let headerLine: number | null = null;
  /** The card column from the header; null: one card per line (or the first field that is a card). */
  let column: number | null = null;
  let first = true;

  const bad = (line: number, message: string) => {
    badLineCount += 1;
    if (badLines.length < MAX_REPORTED_BAD_LINES) badLines.push({ line, message });
  };

  for (const record of csvRecords(text)) {
    if (first) {
      first = false;
      const named = record.fields.findIndex((value) => CARD_COLUMN_NAMES.has(columnName(value)));
      if (named >= 0) {
        column = named;
        headerLine = record.line;
        continue;
      }
    }
    if (column !== null) {
      const value = record.fields[column];
      const card = value === undefined ? null : normalizeCardNumber(value);
      if (card) cards.push({ line: record.line, cardNumber: card });
      else if (value === undefined || value.trim() === "")
        bad(record.line, "no value in the card_number column");
      else bad(record.line, describeBadValue(value));
      continue;
    }
    const found = record.fields.map(normalizeCardNumber).find((card) => card !== null);
    if (found) cards.push({ line: record.line, cardNumber: found });
    else bad(record.line, describeBadValue(record.fields.join(",")));
  }
  return { cards, badLines, badLineCount, headerLine };
}

/** Why a value is not a card number, without repeating the value (it may hold part of a card). */
function describeBadValue(value: string): string {
  const compact = value.replace(/[\s-]/g, "");
  if (/^\d+$/.test(compact)) {
    return `${compact.length} digits: a card number has 12 to 19 digits`;
  }
  return "not a card number: a card number has 12 to 19 digits (spaces and dashes are allowed)";
}
