/**
 * The one code generator (docs/design.md §12): a request, its values given as text and run-time reads
 * (code-samples-values.ts), written as a program in each language by a small template of its own
 * (code-targets/). A value reaches code only through its language's literal function, and what the program reads
 * from the environment is code the template writes, so no value can become code or a read. The Code panel,
 * History, team runs, the sandbox page and the sandbox document's `x-codeSamples` all read it.
 *
 * Not @scalar/snippetz: its plugins write every value as a literal of their own making, and a read joined into
 * one (or into JSON text) could only be added by rewriting their output as text, which is what let values
 * turn into code.
 */
import { csharp } from "./code-targets/csharp";
import { go } from "./code-targets/go";
import { java } from "./code-targets/java";
import { javascriptFetch, nodeHttp } from "./code-targets/javascript";
import { php } from "./code-targets/php";
import { powershell } from "./code-targets/powershell";
import { commentSafe, type Program, type Target } from "./code-targets/program";
import { python } from "./code-targets/python";
import { ruby } from "./code-targets/ruby";
import { shell } from "./code-targets/shell";
import { jsonValue, normalize, read, type Value } from "./code-samples-values";
import { TOKEN_PRELUDE_LANGUAGES, type CodeLanguage } from "./code-languages";

export * from "./code-languages";
export { BEARER, FRESH_UUID, jsonValue, read, text, type Piece, type Value } from "./code-samples-values";

const TARGETS: Record<CodeLanguage, Target> = {
  shell,
  javascript: javascriptFetch,
  node: nodeHttp,
  python,
  java,
  go,
  csharp,
  php,
  ruby,
  powershell,
};

/** A request to write as code: text, or values holding run-time reads. */
export interface SampleRequest {
  method: string;
  url: string;
  headers: Array<[string, Value | string]>;
  /** The body as sent; null without one. */
  body: Value | string | null;
}

export interface SampleOptions {
  /** The token address: the sample first requests a token with CLIENT_ID and CLIENT_SECRET (shell and JS). */
  tokenUrl?: string | null;
  /** Lines for the comment at the top (e.g. which card CARD_NUMBER stands for). */
  notes?: string[];
}

export const JSON_MEDIA_TYPE = "application/json; charset=utf-8";

/** The token request to `tokenUrl`, the client's id and secret read from the environment. */
export function tokenSampleRequest(tokenUrl: string): SampleRequest {
  const credentials = { client_id: "CLIENT_ID", client_secret: "CLIENT_SECRET" } as const;
  const body = jsonValue({ client_id: "", client_secret: "", grant_type: "client_credentials" }, (key) =>
    key === "client_id" || key === "client_secret" ? read(credentials[key], "json") : null,
  );
  return { method: "POST", url: tokenUrl, headers: [["Content-Type", JSON_MEDIA_TYPE]], body };
}

/** RFC 9110 token: a method or a header name. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What no header value may hold: a line break would end the header, and HTTP allows no other control character but tab. */
const BREAKS_HEADER = /[\u0000-\u0008\u000a-\u001f\u007f]/;

function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return (protocol === "http:" || protocol === "https:") && !/[\s\0]/.test(url);
  } catch {
    return false;
  }
}

/** The request as a program for the targets; what cannot be sent as given is left out and said in a note. */
function toProgram(request: SampleRequest, options: SampleOptions, token: Program | null): Program {
  const notes = (options.notes ?? []).map(commentSafe);
  const headers: Program["headers"] = [];
  for (const [name, value] of request.headers) {
    const pieces = normalize(value);
    const broken = pieces.some((piece) => "text" in piece && BREAKS_HEADER.test(piece.text));
    if (TOKEN.test(name) && !broken) headers.push([name, pieces]);
    else notes.push(commentSafe(`Left out a header that is not a valid HTTP header: ${name}`));
  }
  const body = request.body === null ? null : normalize(request.body);
  return { method: request.method, url: request.url, headers, body, token, notes };
}

/** The request as code in `language` that runs as copied. */
export function codeSample(
  language: CodeLanguage,
  request: SampleRequest,
  options: SampleOptions = {},
): string {
  const comment =
    language === "shell" || language === "python" || language === "ruby" || language === "powershell"
      ? "#"
      : "//";
  if (!TOKEN.test(request.method) || !isHttpUrl(request.url))
    return `${comment} No code: this request's method or address is not one an HTTP client can send.`;
  const tokenUrl =
    options.tokenUrl && TOKEN_PRELUDE_LANGUAGES.has(language) && isHttpUrl(options.tokenUrl)
      ? options.tokenUrl
      : null;
  const token = tokenUrl ? toProgram(tokenSampleRequest(tokenUrl), {}, null) : null;
  return TARGETS[language](toProgram(request, options, token));
}
