/** Python 3 with the standard library alone (urllib.request); values are single-quoted literals joined with `+`. */
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

const ESCAPES: Record<string, string> = { "\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** The one Python string literal context: '…', control characters escaped. */
function pythonString(text: string): string {
  return `'${text.replace(/[\\'\u0000-\u001f\u007f]/g, (char) => ESCAPES[char] ?? `\\x${hex(char.charCodeAt(0), 2)}`)}'`;
}

const PYTHON: ExpressionSyntax = {
  literal: pythonString,
  uuid: "str(uuid.uuid4())",
  read: (name) => `env(${pythonString(name)})`,
  json: (read) => `json.dumps(${read})`,
  join: " + ",
  empty: "''",
};

function expression(value: Piece[]): string {
  return valueExpression(value, PYTHON);
}

const ENV_HELPER = [
  "def env(name):",
  '    value = os.environ.get(name, "")',
  "    if not value:",
  '        sys.exit(f"Set {name} in the environment first.")',
  "    return value",
  "",
  "",
];

export function python(program: Program): string {
  const reads = environmentReads(program).length > 0;
  const imports = [
    ...(needsJson(program) ? ["json"] : []),
    ...(reads ? ["os", "sys"] : []),
    "urllib.error",
    "urllib.request",
    ...(needsUuid(program) ? ["uuid"] : []),
  ];
  const body = program.body
    ? [
        `body = (\n    ${joinLines(lines(program.body).map(expression), " +", "    ") || "''"}\n).encode("utf-8")`,
      ]
    : [];
  return [
    "# Python 3.8+, standard library only: save as request.py and run `python3 request.py`.",
    ...commentLines(program).map((line) => `# ${line}`),
    ...imports.map((name) => `import ${name}`),
    "",
    ...(reads ? ["", ...ENV_HELPER] : [""]),
    ...body,
    `request = urllib.request.Request(${pythonString(program.url)}, ${program.body ? "data=body, " : ""}method=${pythonString(program.method)})`,
    ...program.headers.map(
      ([name, value]) => `request.add_header(${pythonString(name)}, ${expression(value)})`,
    ),
    "try:",
    "    with urllib.request.urlopen(request) as response:",
    '        status, text = response.status, response.read().decode("utf-8", "replace")',
    "except urllib.error.HTTPError as error:",
    '    status, text = error.code, error.read().decode("utf-8", "replace")',
    "print(status)",
    "print(text)",
  ].join("\n");
}
