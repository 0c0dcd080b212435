/**
 * cURL in a POSIX shell. Every value is single-quoted words joined with double-quoted expansions of variables
 * the script sets or checks itself; the commands are joined with `&&`, so a missing variable stops the rest,
 * pasted into a terminal or run as a script. `-g` keeps `[]{}` in a URL from being read as a glob.
 */
import { normalize, type Piece } from "../code-samples-values";
import { commentLines, environmentReads, needsJson, needsUuid, type Program } from "./program";

/** The one shell word context: '…', a quote inside written as '\''. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function word(value: Piece[]): string {
  const parts = normalize(value).map((piece) => {
    if ("text" in piece) return shellQuote(piece.text);
    if ("uuid" in piece) return `"$(uuid)"`;
    return piece.as === "json" ? `"$(json "$${piece.read}")"` : `"$${piece.read}"`;
  });
  return parts.join("") || "''";
}

function curl(program: Program, flags: string): string {
  const args = [`curl ${flags} -g -X ${shellQuote(program.method)} --url ${shellQuote(program.url)}`];
  for (const [name, value] of program.headers) {
    // `-H 'Name:'` would remove the header; `Name;` sends it empty.
    args.push(
      value.length === 0 ? `-H ${shellQuote(`${name};`)}` : `-H ${word([{ text: `${name}: ` }, ...value])}`,
    );
  }
  if (program.body) args.push(`--data-raw ${word(program.body)}`);
  return args.join(" \\\n  ");
}

const HELPERS = {
  // The variable's value as a JSON string (quotes and backslashes escaped).
  json: `json() { printf '%s' "$1" | sed 's/[\\\\"]/\\\\&/g; s/^/"/; s/$/"/'; }`,
  uuid: `uuid() { cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen | tr 'A-F' 'a-f'; }`,
};

export function shell(program: Program): string {
  const reads = environmentReads(program);
  const steps: string[] = [];
  if (reads.length > 0)
    steps.push(`: ${reads.map((name) => `"\${${name}:?Set ${name} in the environment first.}"`).join(" ")}`);
  if (program.token) {
    steps.push(
      `ACCESS_TOKEN=$(${curl(program.token, "-sS")} \\\n  | sed -n 's/.*"access_token" *: *"\\([^"]*\\)".*/\\1/p')`,
      `: "\${ACCESS_TOKEN:?the token request failed}"`,
    );
  }
  steps.push(curl(program, "-sS -i"));
  return [
    ...commentLines(program).map((line) => `# ${line}`),
    ...(needsJson(program) ? [HELPERS.json] : []),
    ...(needsUuid(program) ? [HELPERS.uuid] : []),
    steps.join(" &&\n"),
  ].join("\n");
}
