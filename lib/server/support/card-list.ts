/**
 * Reads the card numbers of a support batch from pasted text or an uploaded CSV (docs/design.md §9): one card per
 * line, or a `card_number` column (RFC 4180 quoting, a byte-order mark, CRLF/LF/CR line ends, a header row or
 * not). Spaces and dashes inside a number are tolerated. With a header, the other columns are kept per line. A line that holds no card number is reported with its
 * line number and never stops the rest. Pure and framework-free: the page can use it to preview a paste.
 */

import { maskCardNumbersInText } from "@/lib/shared/masking";

interface ListedCard {
  /** 1-based line of the input where the card's record starts. */
  line: number;
  /** 12 to 19 digits. */
  cardNumber: string;
  /** The line's other columns (see CardList.columns), as uploaded but bounded and masked. */
  extra?: string[];
}

interface BadLine {
  line: number;
  message: string;
  extra?: string[];
}

export interface CardList {
  cards: ListedCard[];
  /** The first `MAX_REPORTED_BAD_LINES` lines that held no card number, in order. */
  badLines: BadLine[];
  /** How many lines held no card number in all (may exceed `badLines.length`). */
  badLineCount: number;
  /** The header row's line when the input had one. */
  headerLine: number | null;
  /**
   * The header's columns other than the card number, kept beside the results (the agent's own ids, names,
   * notes); empty without a header naming a card column.
   */
  columns?: string[];
}

/** Bounds of the uploaded columns kept beside the results. */
const MAX_EXTRA_COLUMNS = 20;
const MAX_EXTRA_CHARS = 200;

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
function* csvRecords(text: string): Generator<CsvRecord> {
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

/**
 * A kept cell: bounded, and with card-like digit runs masked (a note may quote a card; the results never show
 * more than the last 4 digits of one).
 */
function keptCell(value: string): string {
  return maskCardNumbersInText(value.slice(0, MAX_EXTRA_CHARS));
}

/** The header's other columns: their indexes and names (at most MAX_EXTRA_COLUMNS). */
function extraColumns(header: string[], cardColumn: number): { indexes: number[]; names: string[] } {
  const indexes = header.map((_, index) => index).filter((index) => index !== cardColumn);
  const kept = indexes.slice(0, MAX_EXTRA_COLUMNS);
  return { indexes: kept, names: kept.map((index) => keptCell(header[index]!.trim())) };
}

/** Parses a card list. Never throws on content: anything unusable is a bad line. */
export function parseCardList(text: string): CardList {
  const list: CardList = { cards: [], badLines: [], badLineCount: 0, headerLine: null, columns: [] };
  /** The card column from the header; null: one card per line (or the first field that is a card). */
  let column: number | null = null;
  let extra: number[] = [];
  let first = true;

  const bad = (line: number, message: string, cells?: string[]) => {
    list.badLineCount += 1;
    if (list.badLines.length < MAX_REPORTED_BAD_LINES) {
      list.badLines.push({ line, message, ...(cells ? { extra: cells } : {}) });
    }
  };

  for (const record of csvRecords(text)) {
    if (first) {
      first = false;
      const named = record.fields.findIndex((value) => CARD_COLUMN_NAMES.has(columnName(value)));
      if (named >= 0) {
        column = named;
        list.headerLine = record.line;
        ({ indexes: extra, names: list.columns } = extraColumns(record.fields, named));
        continue;
      }
    }
    if (column !== null) {
      const cells = extra.length > 0 ? extra.map((index) => keptCell(record.fields[index] ?? "")) : undefined;
      const value = record.fields[column];
      const card = value === undefined ? null : normalizeCardNumber(value);
      if (card) list.cards.push({ line: record.line, cardNumber: card, ...(cells ? { extra: cells } : {}) });
      else if (value === undefined || value.trim() === "")
        bad(record.line, "no value in the card_number column", cells);
      else bad(record.line, describeBadValue(value), cells);
      continue;
    }
    const found = record.fields.map(normalizeCardNumber).find((card) => card !== null);
    if (found) list.cards.push({ line: record.line, cardNumber: found });
    else bad(record.line, describeBadValue(record.fields.join(",")));
  }
  return list;
}

/** Why a value is not a card number, without repeating the value (it may hold part of a card). */
function describeBadValue(value: string): string {
  const compact = value.replace(/[\s-]/g, "");
  if (/^\d+$/.test(compact)) {
    return `${compact.length} digits: a card number has 12 to 19 digits`;
  }
  return "not a card number: a card number has 12 to 19 digits (spaces and dashes are allowed)";
}
