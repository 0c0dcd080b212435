/** C# (.NET 6+ top-level program) with HttpClient; values are regular "…" literals joined with `+`. */
import { lines, type Piece } from "../code-samples-values";
import {
  commentLines,
  environmentReads,
  hex,
  joinLines,
  needsJson,
  type ExpressionSyntax,
  valueExpression,
  type Program,
} from "./program";

const ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  '"': '\\"',
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\0": "\\0",
};

/** The one C# string literal context: a regular "…" literal, control characters as `\uXXXX`. */
function csharpString(text: string): string {
  const body = text.replace(
    /[\\"\u0000-\u001f\u007f\u0085\u2028\u2029]/g,
    (char) => ESCAPES[char] ?? `\\u${hex(char.charCodeAt(0), 4)}`,
  );
  return `"${body}"`;
}

const CSHARP: ExpressionSyntax = {
  literal: csharpString,
  uuid: "Guid.NewGuid().ToString()",
  read: (name) => `Env(${csharpString(name)})`,
  json: (read) => `JsonSerializer.Serialize(${read}, JsonOptions)`,
  join: " + ",
  empty: '""',
};

function expression(value: Piece[]): string {
  return valueExpression(value, CSHARP);
}

export function csharp(program: Program): string {
  const json = needsJson(program);
  return [
    "// .NET 6+ top-level program: Program.cs of `dotnet new console`, then `dotnet run`.",
    ...commentLines(program).map((line) => `// ${line}`),
    "using System.Text;",
    ...(json ? ["using System.Text.Encodings.Web;", "using System.Text.Json;"] : []),
    "",
    ...(json
      ? [
          "var JsonOptions = new JsonSerializerOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };",
        ]
      : []),
    `using var request = new HttpRequestMessage(new HttpMethod(${csharpString(program.method)}), ${csharpString(program.url)});`,
    ...(program.body
      ? [
          `request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(${joinLines(lines(program.body).map(expression), " +", "    ") || '""'}));`,
        ]
      : []),
    ...program.headers.map(
      ([name, value]) => `AddHeader(request, ${csharpString(name)}, ${expression(value)});`,
    ),
    "using var client = new HttpClient();",
    "using var response = await client.SendAsync(request);",
    "Console.WriteLine((int)response.StatusCode);",
    "Console.WriteLine(await response.Content.ReadAsStringAsync());",
    "",
    "// Content headers (Content-Type) belong to the content, the others to the request.",
    "static void AddHeader(HttpRequestMessage request, string name, string value)",
    "{",
    "    if (!request.Headers.TryAddWithoutValidation(name, value))",
    "        request.Content?.Headers.TryAddWithoutValidation(name, value);",
    "}",
    ...(environmentReads(program).length > 0
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
