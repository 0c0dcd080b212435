/**
 * What each language's generated code needs to run as copied: its literals holding stand-ins rebuilt as text
 * joined with expressions, the helpers and imports those expressions use, and a line printing the status.
 */
import { SAMPLE_VARIABLES, hasStandIn, splitStandIns, type SampleValue } from "./code-samples-values";

interface FinishInput {
  /** The library's code for the request. */
  code: string;
  /** The environment variables the finished code reads. */
  variables: SampleValue[];
  /** The library's code for the token request to run first (shell and JavaScript), else null. */
  tokenCode: string | null;
  /** True for a Gift Balance Inquiry (a fresh X-Request-Id per run). */
  freshRequestId: boolean;
  notes: string[];
}
export type Finisher = (input: FinishInput) => string;

interface LiteralSyntax {
  /** One literal; its first group is the content between the quotes, as written. */
  pattern: RegExp;
  quote: (content: string) => string;
  join: string;
}

/** Rebuilds each literal holding a stand-in as quoted text joined with each stand-in's expression. */
function rebuild(code: string, syntax: LiteralSyntax, expression: (value: SampleValue) => string): string {
  return code.replace(syntax.pattern, (literal, content: string) => {
    if (!hasStandIn(content)) return literal;
    const parts = splitStandIns(content).map((part) =>
      "value" in part ? expression(part.value) : syntax.quote(part.text),
    );
    // In parentheses, so that a method called on the literal (Java's "…".getBytes()) applies to the whole.
    return parts.length > 1 && syntax.join !== "" ? `(${parts.join(syntax.join)})` : parts.join(syntax.join);
  });
}

const SINGLE_QUOTED = /'((?:[^'\\\n]|\\.)*)'/g;
const DOUBLE_QUOTED = /"((?:[^"\\\n]|\\.)*)"/g;
const single = (join: string): LiteralSyntax => ({
  pattern: SINGLE_QUOTED,
  quote: (text) => `'${text}'`,
  join,
});
const double = (join: string): LiteralSyntax => ({
  pattern: DOUBLE_QUOTED,
  quote: (text) => `"${text}"`,
  join,
});

const variableName = (value: SampleValue) => (value === "requestId" ? "" : SAMPLE_VARIABLES[value]);

function needsLine(prefix: string, input: FinishInput): string[] {
  const names = input.variables.map(variableName).filter(Boolean);
  const lines = names.length > 0 ? [`${prefix} Reads ${names.join(", ")} from the environment.`] : [];
  lines.push(...input.notes.map((note) => `${prefix} ${note}`));
  if (input.freshRequestId)
    lines.push(`${prefix} A fresh X-Request-Id per run: the same one twice is a 409 duplicate_request_id.`);
  return lines;
}

const SHELL_UUID = "$(cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen)";

function shellExpression(value: SampleValue): string {
  if (value === "requestId") return `"${SHELL_UUID}"`;
  const name = SAMPLE_VARIABLES[value];
  return `"\${${name}:?set ${name}}"`;
}

const shellSyntax: LiteralSyntax = { pattern: /'([^']*)'/g, quote: (text) => `'${text}'`, join: "" };

function finishShell(input: FinishInput): string {
  const request = rebuild(input.code, shellSyntax, shellExpression).replace(/^curl /, "curl -sS -i ");
  const prelude = input.tokenCode
    ? [
        `ACCESS_TOKEN=$(${rebuild(input.tokenCode, shellSyntax, shellExpression).replace(/^curl /, "curl -sS ")} \\`,
        `  | sed -n 's/.*"access_token" *: *"\\([^"]*\\)".*/\\1/p')`,
        `: "\${ACCESS_TOKEN:?the token request failed}"`,
      ]
    : [];
  return [...needsLine("#", input), ...prelude, request].join("\n");
}

const JS_ENV_HELPER = [
  `const env = (name) => {`,
  `  const value = process.env[name];`,
  `  if (!value) throw new Error(\`Set \${name} in the environment first.\`);`,
  `  return value;`,
  `};`,
];

function finishFetch(input: FinishInput): string {
  const expression = (value: SampleValue) => {
    if (value === "requestId") return "crypto.randomUUID()";
    if (value === "accessToken" && input.tokenCode) return "accessToken";
    return `env(${JSON.stringify(SAMPLE_VARIABLES[value])})`;
  };
  const awaited = (code: string, name: string) =>
    rebuild(code, single(" + "), expression).replace(/^fetch\(/m, `const ${name} = await fetch(`) + ";";
  const prelude = input.tokenCode
    ? [
        awaited(input.tokenCode, "tokenResponse"),
        "if (!tokenResponse.ok) throw new Error(`token request: ${tokenResponse.status} ${await tokenResponse.text()}`);",
        "const accessToken = (await tokenResponse.json()).data.attributes.access_token;",
      ]
    : [];
  return [
    "// Node 20+ as an ES module (save as request.mjs, run `node request.mjs`).",
    ...needsLine("//", input),
    ...(input.variables.length > 0 ? JS_ENV_HELPER : []),
    ...prelude,
    awaited(input.code, "response"),
    "console.log(response.status, await response.text());",
  ].join("\n");
}

function finishPython(input: FinishInput): string {
  const expression = (value: SampleValue) =>
    value === "requestId" ? "str(uuid.uuid4())" : `os.environ[${JSON.stringify(SAMPLE_VARIABLES[value])}]`;
  const imports = [
    ...(input.variables.length > 0 ? ["import os"] : []),
    ...(input.freshRequestId ? ["import uuid"] : []),
  ];
  const code = rebuild(input.code, double(" + "), expression)
    .replace(/^import http\.client$/m, ["import http.client", ...imports].join("\n"))
    .replace(/^print\(response\.read\(\)\.decode\(\)\)$/m, "print(response.status)\n$&");
  return [...needsLine("#", input), code].join("\n");
}

const indentBy = (code: string, pad: string) =>
  code
    .split("\n")
    .map((line) => (line === "" ? line : pad + line))
    .join("\n");

function finishJava(input: FinishInput): string {
  const expression = (value: SampleValue) =>
    value === "requestId"
      ? "java.util.UUID.randomUUID().toString()"
      : `env(${JSON.stringify(SAMPLE_VARIABLES[value])})`;
  const body = rebuild(input.code, double(" + "), expression).replace(
    /^System\.out\.println\(response\.body\(\)\);$/m,
    "System.out.println(response.statusCode());\n$&",
  );
  return [
    "// A whole program: save as Main.java, run `java Main.java` (Java 17+).",
    ...needsLine("//", input),
    "import java.net.http.HttpClient;",
    "import java.net.http.HttpRequest;",
    "import java.net.http.HttpResponse;",
    "",
    "public class Main {",
    "  public static void main(String[] args) throws Exception {",
    indentBy(body, "    "),
    "  }",
    "",
    "  static String env(String name) {",
    "    String value = System.getenv(name);",
    "    if (value == null || value.isEmpty()) {",
    '      throw new IllegalStateException("Set " + name + " in the environment first.");',
    "    }",
    "    return value;",
    "  }",
    "}",
  ].join("\n");
}

const GO_ENV_HELPER = `
func env(name string) string {
	value := os.Getenv(name)
	if value == "" {
		fmt.Fprintf(os.Stderr, "Set %s in the environment first.\\n", name)
		os.Exit(2)
	}
	return value
}`;

const GO_UUID_HELPER = `
func newRequestID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}`;

function finishGo(input: FinishInput): string {
  const expression = (value: SampleValue) =>
    value === "requestId" ? "newRequestID()" : `env(${JSON.stringify(SAMPLE_VARIABLES[value])})`;
  const extraImports = [
    ...(input.freshRequestId ? ['"crypto/rand"'] : []),
    ...(input.variables.length > 0 ? ['"os"'] : []),
  ];
  const code = rebuild(input.code, double(" + "), expression)
    .replace(/import \(\n([\s\S]*?)\n\)/, (_, block: string) => {
      const lines = [...block.split("\n").map((line) => line.trim()), ...extraImports].sort();
      return `import (\n${lines.map((line) => `\t${line}`).join("\n")}\n)`;
    })
    .replace(
      /^([\t ]*)res, _ := http\.DefaultClient\.Do\(req\)$/m,
      "$1res, err := http.DefaultClient.Do(req)\n$1if err != nil {\n$1\tpanic(err)\n$1}",
    )
    .replace(/^([\t ]*)fmt\.Println\(res\)$/m, "$1fmt.Println(res.StatusCode)")
    .trimEnd();
  return [
    "// Save as main.go, run `go run main.go` (Go 1.19+).",
    ...needsLine("//", input),
    code,
    ...(input.variables.length > 0 ? [GO_ENV_HELPER] : []),
    ...(input.freshRequestId ? [GO_UUID_HELPER] : []),
  ].join("\n");
}

/** A C# raw string literal (`"""` lines), whose content the library writes unescaped. */
const CSHARP_RAW: LiteralSyntax = {
  pattern: /"""\n([\s\S]*?)\n"""/g,
  quote: (text) => JSON.stringify(text),
  join: " + ",
};

function finishCsharp(input: FinishInput): string {
  const expression = (value: SampleValue) =>
    value === "requestId" ? "Guid.NewGuid().ToString()" : `Env(${JSON.stringify(SAMPLE_VARIABLES[value])})`;
  const code = rebuild(rebuild(input.code, CSHARP_RAW, expression), double(" + "), expression)
    // StringContent's media type takes no parameters; it adds charset=utf-8 itself.
    .replace(/(System\.Text\.Encoding\.UTF8, "[^";]+);[^"]*"/g, '$1"')
    .trimEnd();
  return [
    "// .NET 6+ top-level program (Program.cs of `dotnet new console`).",
    ...needsLine("//", input),
    "using System.Net.Http.Headers;",
    "",
    code,
    "Console.WriteLine((int)response.StatusCode);",
    "Console.WriteLine(await response.Content.ReadAsStringAsync());",
    ...(input.variables.length > 0
      ? [
          "",
          "static string Env(string name) =>",
          "    Environment.GetEnvironmentVariable(name) is { Length: > 0 } value",
          "        ? value",
          '        : throw new InvalidOperationException($"Set {name} in the environment first.");',
        ]
      : []),
  ].join("\n");
}

const PHP_HELPERS = {
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
  requestId: [
    "function request_id(): string {",
    "  $b = random_bytes(16);",
    "  $b[6] = chr(ord($b[6]) & 0x0f | 0x40);",
    "  $b[8] = chr(ord($b[8]) & 0x3f | 0x80);",
    "  return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));",
    "}",
  ],
};

function finishPhp(input: FinishInput): string {
  const expression = (value: SampleValue) =>
    value === "requestId" ? "request_id()" : `env('${SAMPLE_VARIABLES[value]}')`;
  const code = rebuild(input.code, single(" . "), expression).replace(
    /^curl_exec\(\$ch\);$/m,
    "$&\necho PHP_EOL . curl_getinfo($ch, CURLINFO_RESPONSE_CODE) . PHP_EOL;",
  );
  return [
    "<?php",
    ...needsLine("//", input),
    ...(input.variables.length > 0 ? PHP_HELPERS.env : []),
    ...(input.freshRequestId ? PHP_HELPERS.requestId : []),
    "",
    code,
  ].join("\n");
}

function finishRuby(input: FinishInput): string {
  const expression = (value: SampleValue) =>
    value === "requestId" ? "SecureRandom.uuid" : `ENV.fetch(${JSON.stringify(SAMPLE_VARIABLES[value])})`;
  const code = rebuild(rebuild(input.code, single(" + "), expression), double(" + "), expression)
    .replace(/^require 'net\/http'$/m, input.freshRequestId ? "$&\nrequire 'securerandom'" : "$&")
    .replace(/^puts response\.read_body$/m, "puts response.code\n$&");
  return [...needsLine("#", input), code].join("\n");
}

const POWERSHELL_SINGLE_QUOTED: LiteralSyntax = {
  pattern: /'((?:[^']|'')*)'/g,
  quote: (text) => `'${text}'`,
  join: " + ",
};

function finishPowershell(input: FinishInput): string {
  const expression = (value: SampleValue) =>
    value === "requestId" ? "[guid]::NewGuid().ToString()" : `(Get-RequiredEnv '${SAMPLE_VARIABLES[value]}')`;
  const code = rebuild(input.code, POWERSHELL_SINGLE_QUOTED, expression)
    // PowerShell 7 answers a 4xx as a response rather than an exception.
    .replace(/^(\$response = Invoke-WebRequest .*)$/m, "$1 -SkipHttpErrorCheck")
    .replace(/^\$response$/m, "$response.StatusCode\n$response.Content");
  return [
    "# PowerShell 7+.",
    ...needsLine("#", input),
    ...(input.variables.length > 0
      ? [
          "function Get-RequiredEnv([string]$Name) {",
          "  $value = [Environment]::GetEnvironmentVariable($Name)",
          '  if (-not $value) { throw "Set $Name in the environment first." }',
          "  return $value",
          "}",
          "",
        ]
      : []),
    code,
  ].join("\n");
}

export const finishers = {
  shell: finishShell,
  javascript: finishFetch,
  node: finishFetch,
  python: finishPython,
  java: finishJava,
  go: finishGo,
  csharp: finishCsharp,
  php: finishPhp,
  ruby: finishRuby,
  powershell: finishPowershell,
} satisfies Record<string, Finisher>;
