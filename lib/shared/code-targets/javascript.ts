/**
 * JavaScript, two ways: `fetch` (the web platform's call, as in a browser, Deno, Bun or Node 18+) and Node's own
 * `node:http`/`node:https`. Both ES modules; values are single-quoted literals joined with `+`.
 */
import type { Piece } from "../code-samples-values";
import {
  commentLines,
  environmentReads,
  hex,
  joinLines,
  needsUuid,
  type Program,
  valueExpression,
} from "./program";
import { lines } from "../code-samples-values";

const ESCAPES: Record<string, string> = { "\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** The one JavaScript string literal context: '…', control characters and line separators escaped. */
function jsString(text: string): string {
  const body = text.replace(
    /[\\'\u0000-\u001f\u007f\u2028\u2029]/g,
    (char) => ESCAPES[char] ?? `\\u${hex(char.charCodeAt(0), 4)}`,
  );
  return `'${body}'`;
}

/** With a token request first, ACCESS_TOKEN is the program's own `accessToken`. */
function expression(value: Piece[], token: boolean): string {
  return valueExpression(value, {
    literal: jsString,
    uuid: "crypto.randomUUID()",
    read: (name) => (name === "ACCESS_TOKEN" && token ? "accessToken" : `env(${jsString(name)})`),
    json: (read) => `JSON.stringify(${read})`,
    join: " + ",
    empty: "''",
  });
}

function bodyExpression(body: Piece[], token: boolean, indent: string): string {
  return (
    joinLines(
      lines(body).map((line) => expression(line, token)),
      " +",
      indent,
    ) || "''"
  );
}

function headerLines(program: Program, token: boolean, indent: string): string[] {
  return program.headers.map(([name, value]) => `${indent}[${jsString(name)}, ${expression(value, token)}],`);
}

const ENV_HELPER = (source: string) => [
  "const env = (name) => {",
  `  const value = ${source};`,
  "  if (!value) throw new Error(`Set ${name} in the environment first.`);",
  "  return value;",
  "};",
];

function preamble(program: Program, runsOn: string, imports: string[], envSource: string): string[] {
  return [
    `// ${runsOn}`,
    ...commentLines(program).map((line) => `// ${line}`),
    ...imports,
    ...(environmentReads(program).length > 0 ? ENV_HELPER(envSource) : []),
  ];
}

function fetchCall(program: Program, name: string, token: boolean): string[] {
  return [
    `const ${name} = await fetch(${jsString(program.url)}, {`,
    `  method: ${jsString(program.method)},`,
    "  headers: [",
    ...headerLines(program, token, "    "),
    "  ],",
    ...(program.body ? [`  body: ${bodyExpression(program.body, token, "    ")},`] : []),
    "});",
  ];
}

export function javascriptFetch(program: Program): string {
  const token = Boolean(program.token);
  return [
    ...preamble(
      program,
      "An ES module with fetch: save as request.mjs and run `node request.mjs` (Node 18+), or use Deno or Bun.",
      [],
      "globalThis.process?.env[name] ?? globalThis.Deno?.env.get(name)",
    ),
    ...(program.token
      ? [
          ...fetchCall(program.token, "tokenResponse", false),
          "if (!tokenResponse.ok) throw new Error(`token request: ${tokenResponse.status} ${await tokenResponse.text()}`);",
          "const accessToken = (await tokenResponse.json()).data.attributes.access_token;",
        ]
      : []),
    ...fetchCall(program, "response", token),
    "console.log(response.status);",
    "console.log(await response.text());",
  ].join("\n");
}

const NODE_SEND = [
  "/** One request; resolves with the status and the body as text, whatever the status. */",
  "function send(url, method, headers, body) {",
  "  return new Promise((resolve, reject) => {",
  '    const { request } = url.startsWith("https:") ? https : http;',
  "    const byName = Object.create(null);",
  "    for (const [name, value] of headers) (byName[name] ??= []).push(value);",
  "    const call = request(url, { method, headers: byName }, (response) => {",
  "      const chunks = [];",
  '      response.on("data", (chunk) => chunks.push(chunk));',
  '      response.on("end", () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString("utf8") }));',
  "    });",
  '    call.on("error", reject);',
  "    call.end(body);",
  "  });",
  "}",
];

function sendCall(program: Program, name: string, token: boolean): string[] {
  return [
    `const ${name} = await send(${jsString(program.url)}, ${jsString(program.method)}, [`,
    ...headerLines(program, token, "  "),
    program.body ? `], ${bodyExpression(program.body, token, "  ")});` : "]);",
  ];
}

export function nodeHttp(program: Program): string {
  const token = Boolean(program.token);
  return [
    ...preamble(
      program,
      "Node 18+ with its own http module: save as request.mjs and run `node request.mjs`.",
      [
        'import http from "node:http";',
        'import https from "node:https";',
        ...(needsUuid(program) ? ['import crypto from "node:crypto";'] : []),
      ],
      "process.env[name]",
    ),
    ...NODE_SEND,
    "",
    ...(program.token
      ? [
          ...sendCall(program.token, "tokenResponse", false),
          "if (tokenResponse.status !== 200) throw new Error(`token request: ${tokenResponse.status} ${tokenResponse.text}`);",
          "const accessToken = JSON.parse(tokenResponse.text).data.attributes.access_token;",
        ]
      : []),
    ...sendCall(program, "response", token),
    "console.log(response.status);",
    "console.log(response.text);",
  ].join("\n");
}
