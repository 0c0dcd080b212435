/** Go 1.19+, net/http; values are interpreted string literals joined with `+`. */
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

const ESCAPES: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** The one Go string literal context: "…", control characters and everything beyond ASCII escaped. */
function goString(text: string): string {
  let body = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (ESCAPES[char]) body += ESCAPES[char];
    else if (code < 0x20 || code === 0x7f) body += `\\x${hex(code, 2)}`;
    else if (code < 0x80) body += char;
    else body += code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`;
  }
  return `"${body}"`;
}

const GO: ExpressionSyntax = {
  literal: goString,
  uuid: "newRequestID()",
  read: (name) => `env(${goString(name)})`,
  json: (read) => `jsonString(${read})`,
  join: " + ",
  empty: '""',
};

function expression(value: Piece[]): string {
  return valueExpression(value, GO);
}

const HELPERS = {
  env: `
func env(name string) string {
	value := os.Getenv(name)
	if value == "" {
		fmt.Fprintf(os.Stderr, "Set %s in the environment first.\\n", name)
		os.Exit(2)
	}
	return value
}`,
  json: `
// jsonString is the value as a JSON string.
func jsonString(value string) string {
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(value); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(out.String(), "\\n")
}`,
  uuid: `
func newRequestID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}`,
};

export function go(program: Program): string {
  const reads = environmentReads(program).length > 0;
  const json = needsJson(program);
  const uuid = needsUuid(program);
  const imports = [
    ...(json ? ["bytes"] : []),
    ...(uuid ? ["crypto/rand"] : []),
    ...(json ? ["encoding/json"] : []),
    "fmt",
    "io",
    "net/http",
    ...(reads ? ["os"] : []),
    ...(program.body || json ? ["strings"] : []),
  ];
  const body = program.body
    ? [`\tbody := ${joinLines(lines(program.body).map(expression), " +", "\t\t") || '""'}`]
    : [];
  return [
    "// Save as main.go and run `go run main.go` (Go 1.19+).",
    ...commentLines(program).map((line) => `// ${line}`),
    "package main",
    "",
    "import (",
    ...imports.map((name) => `\t"${name}"`),
    ")",
    "",
    "func main() {",
    ...body,
    `\treq, err := http.NewRequest(${goString(program.method)}, ${goString(program.url)}, ${program.body ? "strings.NewReader(body)" : "nil"})`,
    "\tif err != nil {",
    "\t\tpanic(err)",
    "\t}",
    ...program.headers.map(([name, value]) => `\treq.Header.Add(${goString(name)}, ${expression(value)})`),
    "\tres, err := http.DefaultClient.Do(req)",
    "\tif err != nil {",
    "\t\tpanic(err)",
    "\t}",
    "\tdefer res.Body.Close()",
    "\ttext, err := io.ReadAll(res.Body)",
    "\tif err != nil {",
    "\t\tpanic(err)",
    "\t}",
    "\tfmt.Println(res.StatusCode)",
    "\tfmt.Println(string(text))",
    "}",
    ...(reads ? [HELPERS.env] : []),
    ...(json ? [HELPERS.json] : []),
    ...(uuid ? [HELPERS.uuid] : []),
  ].join("\n");
}
