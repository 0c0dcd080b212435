/**
 * PHP 8 with no extension: the http stream wrapper (file_get_contents) rather than curl, which many PHP installs
 * lack. Values are double-quoted literals joined with `.`.
 */
import { lines, normalize, type Piece } from "../code-samples-values";
import {
  commentLines,
  environmentReads,
  hex,
  joinLines,
  needsUuid,
  type ExpressionSyntax,
  valueExpression,
  type Program,
} from "./program";

const ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  '"': '\\"',
  $: "\\$",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  "\f": "\\f",
  "\u001b": "\\e",
};

/** The one PHP string literal context: "…" with `$` escaped (no interpolation), control characters escaped. */
function phpString(text: string): string {
  const body = text.replace(
    /[\\"$\u0000-\u001f\u007f]/g,
    (char) => ESCAPES[char] ?? `\\x${hex(char.charCodeAt(0), 2)}`,
  );
  return `"${body}"`;
}

const PHP: ExpressionSyntax = {
  literal: phpString,
  uuid: "request_id()",
  read: (name) => `env(${phpString(name)})`,
  json: (read) => `json_encode(${read}, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE)`,
  join: " . ",
  empty: '""',
};

function expression(value: Piece[]): string {
  return valueExpression(value, PHP);
}

const HELPERS = {
  env: [
    "function env(string $name): string {",
    "  $value = getenv($name);",
    "  if ($value === false || $value === '') {",
    '    fwrite(STDERR, "Set $name in the environment first.\\n");',
    "    exit(2);",
    "  }",
    "  return $value;",
    "}",
  ],
  uuid: [
    "function request_id(): string {",
    "  $b = random_bytes(16);",
    "  $b[6] = chr(ord($b[6]) & 0x0f | 0x40);",
    "  $b[8] = chr(ord($b[8]) & 0x3f | 0x80);",
    "  return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));",
    "}",
  ],
};

export function php(program: Program): string {
  return [
    "<?php",
    "// PHP 8+, no extension needed: save as request.php and run `php request.php`.",
    ...commentLines(program).map((line) => `// ${line}`),
    ...(environmentReads(program).length > 0 ? HELPERS.env : []),
    ...(needsUuid(program) ? HELPERS.uuid : []),
    "",
    ...(program.body
      ? [`$body = ${joinLines(lines(program.body).map(expression), " .", "  ") || '""'};`]
      : []),
    "$context = stream_context_create(['http' => [",
    `  'method' => ${phpString(program.method)},`,
    "  'header' => [",
    ...program.headers.map(
      ([name, value]) => `    ${expression(normalize([{ text: `${name}: ` }, ...value]))},`,
    ),
    "  ],",
    ...(program.body ? ["  'content' => $body,"] : []),
    "  'ignore_errors' => true,",
    "]]);",
    `$answer = file_get_contents(${phpString(program.url)}, false, $context);`,
    "if ($answer === false) {",
    '  fwrite(STDERR, "No answer.\\n");',
    "  exit(1);",
    "}",
    "$headers = function_exists('http_get_last_response_headers') ? http_get_last_response_headers() : $http_response_header;",
    "// The last status line: the answer after any redirect.",
    "$status = preg_grep('#^HTTP/#', $headers);",
    "echo explode(' ', end($status))[1], PHP_EOL;",
    "echo $answer, PHP_EOL;",
  ].join("\n");
}
