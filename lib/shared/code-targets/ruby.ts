/** Ruby 2.7+, net/http; values are double-quoted literals joined with `+`, `#` escaped so nothing interpolates. */
import { lines, type Piece } from "../code-samples-values";
import {
  commentLines,
  environmentReads,
  hex,
  joinLines,
  needsJson,
  needsUuid,
  type ExpressionSyntax,
  valueExpression,
  type Program,
} from "./program";

const ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  '"': '\\"',
  "#": "\\#",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  "\f": "\\f",
  "\u001b": "\\e",
};

/** The one Ruby string literal context: "…" with `#` escaped (no `#{}`, `#@`, `#$`), control characters escaped. */
function rubyString(text: string): string {
  const body = text.replace(
    /[\\"#\u0000-\u001f\u007f]/g,
    (char) => ESCAPES[char] ?? `\\u${hex(char.charCodeAt(0), 4)}`,
  );
  return `"${body}"`;
}

const RUBY: ExpressionSyntax = {
  literal: rubyString,
  uuid: "SecureRandom.uuid",
  read: (name) => `env(${rubyString(name)})`,
  json: (read) => `JSON.generate(${read})`,
  join: " + ",
  empty: '""',
};

function expression(value: Piece[]): string {
  return valueExpression(value, RUBY);
}

const ENV_HELPER = [
  "def env(name)",
  '  value = ENV.fetch(name, "")',
  '  abort("Set #{name} in the environment first.") if value.empty?',
  "  value",
  "end",
  "",
];

export function ruby(program: Program): string {
  const requires = [
    ...(needsJson(program) ? ["json"] : []),
    "net/http",
    ...(needsUuid(program) ? ["securerandom"] : []),
  ];
  return [
    "# Ruby 2.7+, standard library only: save as request.rb and run `ruby request.rb`.",
    ...commentLines(program).map((line) => `# ${line}`),
    ...requires.map((name) => `require "${name}"`),
    "",
    ...(environmentReads(program).length > 0 ? ENV_HELPER : []),
    `uri = URI(${rubyString(program.url)})`,
    `request = Net::HTTPGenericRequest.new(${rubyString(program.method)}, ${program.body ? "true" : "false"}, true, uri)`,
    // `[]=` replaces a default (Accept: */*); add_field adds a second header of the same name.
    ...program.headers.map(([name, value], index) => {
      const again = program.headers
        .slice(0, index)
        .some(([other]) => other.toLowerCase() === name.toLowerCase());
      return again
        ? `request.add_field(${rubyString(name)}, ${expression(value)})`
        : `request[${rubyString(name)}] = ${expression(value)}`;
    }),
    ...(program.body
      ? [`request.body = ${joinLines(lines(program.body).map(expression), " +", "  ") || '""'}`]
      : []),
    'response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|',
    "  http.request(request)",
    "end",
    "puts response.code",
    "puts response.body",
  ].join("\n");
}
