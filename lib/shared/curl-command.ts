/**
 * Reads a pasted cURL command of one of the specification's card operations into a free-form request: method,
 * headers, body and, from the URL's path, the operation and a lookup's Request Id. Shell words as a POSIX shell
 * splits them ('…', "…", $'…', backslashes, line continuations, comments); of several commands (the console's
 * own "Copy as cURL" requests its token first) the card operation's is taken. Anything else is a message that
 * says what was not understood. Isomorphic and dependency-free: the request editor runs it in the browser.
 */
import { asFreeFormOperation, type FreeFormOperation } from "./free-form";
import { OPERATION_SPECS, matchOperationPath } from "./operations";

export interface CurlRequest {
  operation: FreeFormOperation;
  /** In the command's order; Authorization is left out (the console sends its own token). */
  headers: [name: string, value: string][];
  body: string | null;
  /** The lookup's path id, or a Gift Balance Inquiry's X-Request-Id. */
  requestId: string | null;
  /** What was changed or left out, for people. */
  notes: string[];
}

export type ParsedCurl = ({ ok: true } & CurlRequest) | { ok: false; message: string };

class CurlError extends Error {}

const ANSI_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"' };

interface Scan {
  text: string;
  at: number;
}

/** A '…' word part: everything literal up to the next quote. */
function singleQuoted(scan: Scan): string {
  const end = scan.text.indexOf("'", scan.at);
  if (end < 0) throw new CurlError("A single quote (') is not closed.");
  const part = scan.text.slice(scan.at, end);
  scan.at = end + 1;
  return part;
}

/** A "…" word part: backslash escapes only $ ` " \ and a line break; everything else is literal. */
function doubleQuoted(scan: Scan): string {
  let part = "";
  for (;;) {
    const char = scan.text[scan.at++];
    if (char === undefined) throw new CurlError('A double quote (") is not closed.');
    if (char === '"') return part;
    if (char === "\\") {
      const next = scan.text[scan.at] ?? "";
      if ('$`"\\\n'.includes(next) && next !== "") {
        scan.at++;
        if (next !== "\n") part += next;
        continue;
      }
      if (next === "\r" && scan.text[scan.at + 1] === "\n") {
        scan.at += 2;
        continue;
      }
    }
    part += char;
  }
}

/** A $'…' word part (ANSI-C quoting): the common escapes. */
function ansiQuoted(scan: Scan): string {
  let part = "";
  for (;;) {
    const char = scan.text[scan.at++];
    if (char === undefined) throw new CurlError("A $'…' quote is not closed.");
    if (char === "'") return part;
    if (char === "\\") {
      const next = scan.text[scan.at++] ?? "";
      part += ANSI_ESCAPES[next] ?? `\\${next}`;
    } else part += char;
  }
}

/** Commands (lists of words), split where the shell would run another command: a line break, ; | && ||. */
export function shellCommands(text: string): string[][] {
  const scan: Scan = { text, at: 0 };
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  while (scan.at < text.length) {
    const char = text[scan.at++]!;
    if (char === "\\" && (text[scan.at] === "\n" || text.startsWith("\r\n", scan.at))) {
      scan.at += text[scan.at] === "\n" ? 1 : 2;
      endWord();
    } else if (char === "\\") word = (word ?? "") + (text[scan.at++] ?? "");
    else if (char === "'") word = (word ?? "") + singleQuoted(scan);
    else if (char === '"') word = (word ?? "") + doubleQuoted(scan);
    else if (char === "$" && text[scan.at] === "'") {
      scan.at++;
      word = (word ?? "") + ansiQuoted(scan);
    } else if (char === "#" && word === null) {
      const end = text.indexOf("\n", scan.at);
      scan.at = end < 0 ? text.length : end;
    } else if (char === "\n" || char === ";" || char === "|" || char === "&") endCommand();
    else if (char === " " || char === "\t" || char === "\r") endWord();
    else word = (word ?? "") + char;
  }
  endCommand();
  return commands;
}

const IGNORED_FLAGS = new Set([
  "-s",
  "-S",
  "-i",
  "-v",
  "-k",
  "-L",
  "-f",
  "-g",
  "--silent",
  "--show-error",
  "--include",
  "--verbose",
  "--insecure",
  "--location",
  "--fail",
  "--fail-with-body",
  "--compressed",
  "--globoff",
  "--http1.1",
  "--no-progress-meter",
]);
const IGNORED_WITH_VALUE = new Set([
  "-o",
  "--output",
  "-m",
  "--max-time",
  "--connect-timeout",
  "-w",
  "--write-out",
  "--retry",
]);
const DATA_OPTIONS = new Set(["-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json"]);
const REFUSED_OPTIONS: Record<string, string> = {
  "-u": "sends a user and password; the console calls with its own token",
  "--user": "sends a user and password; the console calls with its own token",
  "-F": "sends a multipart form, which no card operation takes",
  "--form": "sends a multipart form, which no card operation takes",
  "-G": "turns the data into a query string, which no card operation takes",
  "--get": "turns the data into a query string, which no card operation takes",
  "-T": "uploads a file",
  "--upload-file": "uploads a file",
};

interface CurlOptions {
  method: string | null;
  url: string | null;
  headers: [string, string][];
  data: string[];
  json: boolean;
}

/** `-XPOST`, `-H'…'`: a short option with its value attached, split in two. */
function splitAttached(word: string): [string, string | undefined] {
  if (/^-[XHdAo]./.test(word)) return [word.slice(0, 2), word.slice(2)];
  const equals = word.indexOf("=");
  if (word.startsWith("--") && equals > 0) return [word.slice(0, equals), word.slice(equals + 1)];
  return [word, undefined];
}

/** Short flags written together (`-sSi`): each one ignored, or the first it cannot ignore. */
function ignorableFlags(word: string): boolean {
  if (IGNORED_FLAGS.has(word)) return true;
  return /^-[a-zA-Z]{2,}$/.test(word) && [...word.slice(1)].every((flag) => IGNORED_FLAGS.has(`-${flag}`));
}

function readOption(options: CurlOptions, name: string, value: string): void {
  if (name === "-X" || name === "--request") options.method = value.toUpperCase();
  else if (name === "--url") options.url = value;
  else if (name === "-A" || name === "--user-agent") options.headers.push(["User-Agent", value]);
  else if (name === "-H" || name === "--header") {
    const colon = value.indexOf(":");
    if (colon <= 0) throw new CurlError(`The header ${JSON.stringify(value)} has no "Name: value" form.`);
    options.headers.push([value.slice(0, colon).trim(), value.slice(colon + 1).trim()]);
  } else if (DATA_OPTIONS.has(name)) {
    if (value.startsWith("@") && name !== "--data-raw")
      throw new CurlError(`${name} ${value} reads a file: paste the body itself instead.`);
    options.data.push(value);
    if (name === "--json") options.json = true;
  }
}

const TAKES_VALUE = new Set([
  "-X",
  "--request",
  "--url",
  "-A",
  "--user-agent",
  "-H",
  "--header",
  ...DATA_OPTIONS,
]);

function curlOptions(words: readonly string[]): CurlOptions {
  const options: CurlOptions = { method: null, url: null, headers: [], data: [], json: false };
  for (let index = 1; index < words.length; index++) {
    const word = words[index]!;
    const [name, attached] = splitAttached(word);
    if (REFUSED_OPTIONS[name]) throw new CurlError(`${name} ${REFUSED_OPTIONS[name]}.`);
    if (TAKES_VALUE.has(name) || IGNORED_WITH_VALUE.has(name)) {
      const value = attached ?? words[++index];
      if (value === undefined) throw new CurlError(`${name} needs a value.`);
      if (TAKES_VALUE.has(name)) readOption(options, name, value);
    } else if (ignorableFlags(word)) continue;
    else if (word.startsWith("-"))
      throw new CurlError(`The option ${word} is not one the console understands.`);
    else if (options.url === null) options.url = word;
    else throw new CurlError(`The command names a second address (${word}); paste one request.`);
  }
  return options;
}

/** The operation and the still-encoded path id of a URL's path (below any base path). */
function operationOfUrl(url: string) {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? "";
  }
  for (let at = path.indexOf("/"); at >= 0; at = path.indexOf("/", at + 1)) {
    const match = matchOperationPath(path.slice(at));
    if (match) return match;
  }
  return null;
}

function requestIdOf(encoded: string | undefined): string | null {
  if (encoded === undefined) return null;
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new CurlError("The Request Id in the address has malformed %-encoding.");
  }
}

/** `$(…)`, `${…}`, `$NAME`: what the shell would have replaced and the editor cannot. */
const SHELL_EXPANSION = /\$(\(|\{|[A-Za-z_])/;

/** Headers without Authorization, and without an X-Request-Id the shell would have made; notes say so. */
function keptHeaders(headers: readonly [string, string][], notes: string[]): [string, string][] {
  return headers.filter(([name, value]) => {
    const lower = name.toLowerCase();
    if (lower === "authorization") {
      notes.push("Authorization was left out: the console sends its own token.");
      return false;
    }
    if (!SHELL_EXPANSION.test(value)) return true;
    if (lower === "x-request-id") {
      notes.push("X-Request-Id was made by the shell: the editor makes a fresh one.");
      return false;
    }
    notes.push(`${name} holds a shell expansion (${value}): replace it with its value.`);
    return true;
  });
}

/** What the command asks for, checked against the operation its path names. */
function curlRequest(options: CurlOptions): CurlRequest {
  if (options.url === null) throw new CurlError("The command has no address.");
  const match = operationOfUrl(options.url);
  const operation = match ? asFreeFormOperation(match.operation) : null;
  if (match?.operation === "token")
    throw new CurlError("This is the token request: the console requests its tokens itself.");
  if (!match || !operation) {
    throw new CurlError(
      `${options.url} is not the address of a card operation (the Gift Balance Inquiry, the Balance Inquiry ` +
        "or the lookup by Request Id).",
    );
  }
  const spec = OPERATION_SPECS[match.operation];
  const body = options.data.length > 0 ? options.data.join("&") : null;
  const method = options.method ?? (body === null ? "GET" : "POST");
  if (method !== spec.method)
    throw new CurlError(`${spec.label} is a ${spec.method}; the command sends a ${method}.`);
  const notes: string[] = [];
  const headers = keptHeaders(options.headers, notes);
  const variable = body === null ? null : SHELL_EXPANSION.exec(body);
  if (variable) notes.push("The body uses a shell variable: replace it with its value before sending.");
  const has = (name: string) => headers.some(([key]) => key.toLowerCase() === name.toLowerCase());
  if (options.json && !has("Content-Type")) headers.push(["Content-Type", "application/json"]);
  if (options.json && !has("Accept")) headers.push(["Accept", "application/json"]);
  const idHeader = headers.find(([name]) => name.toLowerCase() === "x-request-id")?.[1] ?? null;
  const requestId = requestIdOf(match.encodedRequestId) ?? idHeader;
  return { operation, headers, body, requestId, notes };
}

export function parseCurlCommand(text: string): ParsedCurl {
  try {
    const commands = shellCommands(text).filter((words) => /(^|\/)curl(\.exe)?$/.test(words[0] ?? ""));
    if (commands.length === 0) return { ok: false, message: "This is not a curl command." };
    // The console's own copy requests its token first: the card operation's command is the one to take.
    const card = commands.filter((words) => !words.some((word) => word.includes("/reporting/v1/auth/token")));
    const chosen = card.at(-1) ?? commands.at(-1)!;
    return { ok: true, ...curlRequest(curlOptions(chosen)) };
  } catch (error) {
    if (error instanceof CurlError) return { ok: false, message: error.message };
    throw error;
  }
}
