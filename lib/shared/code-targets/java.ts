/** Java 17+, a whole single-file program (`java Main.java`) on java.net.http; values are "…" joined with `+`. */
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
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

/**
 * The one Java string literal context: "…", control characters as octal escapes and everything beyond ASCII as
 * `\uXXXX` (the source is then ASCII, whatever encoding `java` reads it with). A backslash in the text is
 * doubled first, so the text never forms a `\u` escape of its own.
 */
function javaString(text: string): string {
  const body = text.replace(/[\\"\u0000-\u001f\u007f-\uffff]/g, (char) => {
    const code = char.charCodeAt(0);
    if (ESCAPES[char]) return ESCAPES[char];
    return code < 0x80 ? `\\${code.toString(8).padStart(3, "0")}` : `\\u${hex(code, 4)}`;
  });
  return `"${body}"`;
}

const JAVA: ExpressionSyntax = {
  literal: javaString,
  uuid: "UUID.randomUUID().toString()",
  read: (name) => `env(${javaString(name)})`,
  json: (read) => `json(${read})`,
  join: " + ",
  empty: '""',
};

function expression(value: Piece[]): string {
  return valueExpression(value, JAVA);
}

const ENV_HELPER = [
  "",
  "  static String env(String name) {",
  "    String value = System.getenv(name);",
  "    if (value == null || value.isEmpty()) {",
  '      System.err.println("Set " + name + " in the environment first.");',
  "      System.exit(2);",
  "    }",
  "    return value;",
  "  }",
];

const JSON_HELPER = [
  "",
  "  /** The value as a JSON string. */",
  "  static String json(String value) {",
  '    StringBuilder out = new StringBuilder("\\"");',
  "    for (char c : value.toCharArray()) {",
  "      if (c == '\"' || c == '\\\\') out.append('\\\\').append(c);",
  '      else if (c < 0x20) out.append(String.format("\\\\u%04x", (int) c));',
  "      else out.append(c);",
  "    }",
  "    return out.append('\"').toString();",
  "  }",
];

export function java(program: Program): string {
  const body = program.body
    ? `HttpRequest.BodyPublishers.ofString(${joinLines(lines(program.body).map(expression), " +", "        ") || '""'}, StandardCharsets.UTF_8)`
    : "HttpRequest.BodyPublishers.noBody()";
  return [
    "// A whole program: save as Main.java and run `java Main.java` (Java 17+).",
    ...commentLines(program).map((line) => `// ${line}`),
    "import java.net.URI;",
    "import java.net.http.HttpClient;",
    "import java.net.http.HttpRequest;",
    "import java.net.http.HttpResponse;",
    "import java.nio.charset.StandardCharsets;",
    ...(needsUuid(program) ? ["import java.util.UUID;"] : []),
    "",
    "public class Main {",
    "  public static void main(String[] args) throws Exception {",
    `    HttpRequest request = HttpRequest.newBuilder(URI.create(${javaString(program.url)}))`,
    `        .method(${javaString(program.method)}, ${body})`,
    ...program.headers.map(([name, value]) => `        .header(${javaString(name)}, ${expression(value)})`),
    "        .build();",
    "    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();",
    "    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());",
    "    System.out.println(response.statusCode());",
    "    System.out.println(response.body());",
    "  }",
    ...(environmentReads(program).length > 0 ? ENV_HELPER : []),
    ...(needsJson(program) ? JSON_HELPER : []),
    "}",
  ].join("\n");
}
