/**
 * The one code generator (docs/design.md §12): a request, fed as HAR to @scalar/snippetz, comes out in ten
 * languages, then is finished so that it runs as copied. The library writes every value as a literal, so the
 * request carries stand-ins (SAMPLE_VALUE) where a value must not be written in, and each literal holding one is
 * rebuilt in the language's own syntax as text joined with an expression: a variable read from the environment
 * (ACCESS_TOKEN, CLIENT_ID, CLIENT_SECRET, CARD_NUMBER) or a fresh UUID for a Gift Balance Inquiry's
 * X-Request-Id. The Code panel, History and the sandbox document's `x-codeSamples` all read it.
 */
import { csharpHttpclient } from "@scalar/snippetz/plugins/csharp/httpclient";
import { goNative } from "@scalar/snippetz/plugins/go/native";
import { javaNethttp } from "@scalar/snippetz/plugins/java/nethttp";
import { jsFetch } from "@scalar/snippetz/plugins/js/fetch";
import { nodeFetch } from "@scalar/snippetz/plugins/node/fetch";
import { phpCurl } from "@scalar/snippetz/plugins/php/curl";
import { powershellWebrequest } from "@scalar/snippetz/plugins/powershell/webrequest";
import { pythonPython3 } from "@scalar/snippetz/plugins/python/python3";
import { rubyNative } from "@scalar/snippetz/plugins/ruby/native";
import { shellCurl } from "@scalar/snippetz/plugins/shell/curl";
import { finishers, type Finisher } from "./code-samples-finish";
import { SAMPLE_VALUE, type SampleValue } from "./code-samples-values";

import { TOKEN_PRELUDE_LANGUAGES, type CodeLanguage } from "./code-languages";

export { SAMPLE_VALUE } from "./code-samples-values";
export * from "./code-languages";

interface Plugin {
  generate: (request: HarRequest) => string | undefined;
}

const PLUGINS: Record<CodeLanguage, Plugin> = {
  shell: shellCurl,
  javascript: jsFetch,
  node: nodeFetch,
  python: pythonPython3,
  java: javaNethttp,
  go: goNative,
  csharp: csharpHttpclient,
  php: phpCurl,
  ruby: rubyNative,
  powershell: powershellWebrequest,
} as Record<CodeLanguage, Plugin>;

interface HarRequest {
  method: string;
  url: string;
  headers: Array<{ name: string; value: string }>;
  postData?: { mimeType: string; text: string };
}

/** A request to write as code; values that must not be written in are SAMPLE_VALUE stand-ins. */
export interface SampleRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  /** The body as sent (JSON text, pretty or not); null without one. */
  body: string | null;
}

export interface SampleOptions {
  /** The token address: the sample first requests a token with CLIENT_ID and CLIENT_SECRET (shell and JS). */
  tokenUrl?: string | null;
  /** Lines for the comment at the top (e.g. which card CARD_NUMBER stands for). */
  notes?: string[];
}

/** `Bearer <ACCESS_TOKEN>`: the value of an Authorization header in a sample. */
export const BEARER_STAND_IN = `Bearer ${SAMPLE_VALUE.accessToken}`;

/** The token request's body, with the client's id and secret from the environment. */
function tokenRequestBody(): string {
  return JSON.stringify({
    client_id: SAMPLE_VALUE.clientId,
    client_secret: SAMPLE_VALUE.clientSecret,
    grant_type: "client_credentials",
  });
}

export const JSON_MEDIA_TYPE = "application/json; charset=utf-8";

/** The token request to `tokenUrl` as a sample request. */
export function tokenSampleRequest(tokenUrl: string): SampleRequest {
  return {
    method: "POST",
    url: tokenUrl,
    headers: [["Content-Type", JSON_MEDIA_TYPE]],
    body: tokenRequestBody(),
  };
}

function toHar(request: SampleRequest): HarRequest {
  const contentType =
    request.headers.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? JSON_MEDIA_TYPE;
  return {
    method: request.method,
    url: request.url,
    headers: request.headers.map(([name, value]) => ({ name, value })),
    ...(request.body === null ? {} : { postData: { mimeType: contentType, text: request.body } }),
  };
}

/** The variables a sample reads, in the order a reader sets them. */
function sampleVariables(text: string): SampleValue[] {
  return (Object.keys(SAMPLE_VALUE) as SampleValue[]).filter(
    (name) => name !== "requestId" && text.includes(SAMPLE_VALUE[name]),
  );
}

/** The request as code in `language` that runs as copied. */
export function codeSample(
  language: CodeLanguage,
  request: SampleRequest,
  options: SampleOptions = {},
): string {
  const finisher: Finisher = finishers[language];
  const plugin = PLUGINS[language];
  const tokenUrl = options.tokenUrl && TOKEN_PRELUDE_LANGUAGES.has(language) ? options.tokenUrl : null;
  const code = plugin.generate(toHar(request)) ?? "";
  const tokenCode = tokenUrl ? (plugin.generate(toHar(tokenSampleRequest(tokenUrl))) ?? "") : null;
  const needed = sampleVariables(code + (tokenCode ?? ""));
  return finisher({
    code,
    tokenCode,
    variables: tokenCode ? needed.filter((name) => name !== "accessToken") : needed,
    freshRequestId: code.includes(SAMPLE_VALUE.requestId),
    notes: options.notes ?? [],
  });
}
