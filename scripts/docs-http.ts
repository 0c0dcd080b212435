/**
 * `npm run docs:http`: writes docs/reference/http-interface.md from the console's OpenAPI document, which the
 * route catalogue generates (lib/server/openapi/console-document.ts): every route and method, who may call it,
 * its parameters and body, its answers and every error code it can answer. `--check` writes nothing and exits 1
 * when the committed page differs; test/unit/scripts/docs-http.test.ts fails in that case too.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import { consoleOpenApiDocument } from "@/lib/server/openapi/console-document";

type Json = Record<string, unknown>;

export const HTTP_INTERFACE_PAGE = path.resolve(__dirname, "../docs/reference/http-interface.md");
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const code = (text: string) => `\`${text}\``;

/** `#/components/schemas/Name` → `Name`; an inline schema → its type. */
function schemaName(schema: Json | undefined): string {
  if (!schema) return "";
  const ref = schema.$ref;
  if (typeof ref === "string") return code(ref.split("/").pop() ?? ref);
  if (schema.type === "array" && schema.items) return `array of ${schemaName(schema.items as Json)}`;
  const type = schema.type ?? (schema.anyOf || schema.oneOf ? "one of several" : "any");
  const format = typeof schema.format === "string" ? ` (${schema.format})` : "";
  const values = Array.isArray(schema.enum)
    ? `: ${schema.enum.map((value) => code(String(value))).join(", ")}`
    : "";
  return `${Array.isArray(type) ? type.join(" or ") : String(type)}${format}${values}`;
}

function parametersOf(operation: Json): string[] {
  const parameters = (operation.parameters ?? []) as Json[];
  return parameters.map((parameter) => {
    const about = parameter.description ? `: ${String(parameter.description)}` : "";
    const required = parameter.required ? "" : ", optional";
    return `- ${code(String(parameter.name))} (${String(parameter.in)}${required}, ${schemaName(parameter.schema as Json)})${about}`;
  });
}

function bodyOf(operation: Json): string[] {
  const body = operation.requestBody as Json | undefined;
  if (!body) return [];
  const content = Object.entries((body.content ?? {}) as Record<string, Json>);
  const example = content.find(([, media]) => media.example !== undefined)?.[1].example;
  const shapes = content.map(([type, media]) => `${code(type)} ${schemaName(media.schema as Json)}`.trim());
  return [
    `- body${body.required ? "" : " (optional)"}: ${shapes.join(", or ")}${
      example === undefined ? "" : `, e.g. ${code(JSON.stringify(example))}`
    }`,
  ];
}

/** Each code of an error answer with what it means: `code`: when. The description joins them in that form. */
export function errorCodesOf(answer: Json): [string, string][] {
  const codes = (answer["x-error-codes"] ?? []) as string[];
  const description = String(answer.description ?? "");
  const starts = codes.map((name) => description.indexOf(`\`${name}\`: `));
  return codes.map((name, index) => {
    const from = starts[index]! + name.length + 4;
    const to = starts.slice(index + 1).find((start) => start > from) ?? description.length;
    return [name, starts[index]! < 0 ? "" : description.slice(from, to).trim()];
  });
}

function answersOf(operation: Json, common: Map<string, string>): string[] {
  return Object.entries((operation.responses ?? {}) as Record<string, Json>).map(([status, answer]) => {
    if (answer["x-error-codes"]) {
      const codes = errorCodesOf(answer).map(([name, when]) => {
        const shared = common.get(name) ?? "";
        const own =
          when === shared ? "" : shared && when.startsWith(shared) ? when.slice(shared.length).trim() : when;
        return own ? `${code(name)} (${own.replace(/\.$/, "")})` : code(name);
      });
      return `- **${status}** ${codes.join(", ")}`;
    }
    const media = Object.entries((answer.content ?? {}) as Record<string, Json>);
    const shape = media
      .map(([type, about]) => `${code(type)} ${schemaName(about.schema as Json)}`.trim())
      .join(", ");
    return `- **${status}** ${String(answer.description ?? "")}${shape ? ` ${shape}` : ""}`;
  });
}

function operationOf(
  template: string,
  method: string,
  operation: Json,
  common: Map<string, string>,
): string[] {
  const roles = operation["x-console-roles"] as string[] | undefined;
  const security = (operation.security ?? []) as Json[];
  const who =
    security.length === 0
      ? "Public: no sign-in."
      : roles && roles.length > 0
        ? `Roles: ${roles.map(code).join(", ")}.`
        : "Any signed-in user.";
  return [
    `### ${code(`${method.toUpperCase()} ${template}`)}`,
    "",
    `${String(operation.summary ?? "")}${String(operation.summary ?? "").endsWith(".") ? "" : "."} ${who}`,
    "",
    ...(operation.description ? [String(operation.description), ""] : []),
    ...parametersOf(operation),
    ...bodyOf(operation),
    ...answersOf(operation, common),
    "",
  ];
}

/** Each error code's most frequent meaning over every route: the one the page states once. */
function commonErrors(operations: Json[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const operation of operations)
    for (const answer of Object.values((operation.responses ?? {}) as Record<string, Json>))
      for (const [name, when] of errorCodesOf(answer)) {
        const meanings = counts.get(name) ?? new Map<string, number>();
        meanings.set(when, (meanings.get(when) ?? 0) + 1);
        counts.set(name, meanings);
      }
  return new Map(
    [...counts].map(([name, meanings]) => [
      name,
      [...meanings].sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b))[0]![0],
    ]),
  );
}

/** The area a path belongs to: `/api/certification/runs/{id}` → `certification`. */
const areaOf = (template: string) => template.split("/")[2]?.replace(/\..*$/, "") ?? "";

/** The page's Markdown, formatted as `prettier --check` expects it. */
export async function renderHttpInterface(): Promise<string> {
  const document = consoleOpenApiDocument("http://localhost:3000") as Json;
  const info = document.info as Json;
  const paths = Object.entries(document.paths as Record<string, Record<string, Json>>).sort(([a], [b]) =>
    a.localeCompare(b),
  );
  const lines = [
    "# The console's HTTP interface",
    "",
    "<!-- Generated by `npm run docs:http` from the route catalogue; do not edit by hand. -->",
    "",
    String(info.description),
    "",
    "Every route below is one entry of the route catalogue; the same catalogue serves the routes, checks their",
    "input and access, and generates the OpenAPI 3.1 document a running console serves at `GET /api/openapi.json`,",
    "where the schemas named here are written out in full. How to call these routes from a script, with examples:",
    "[calling the HTTP interface](http-usage.md). The roles: [sign-in, roles and sessions](../operations/sign-in-and-roles.md#roles).",
    "",
  ];
  const common = commonErrors(paths.flatMap(([, methods]) => Object.values(methods)));
  lines.push(
    "## Error codes",
    "",
    'Every error answers `{"error": {"code", "message", "details"?}}` with one of these codes. Each route below lists',
    "the codes it can answer by status, with what that route adds to a code's meaning in brackets.",
    "",
    ...[...common].sort(([a], [b]) => a.localeCompare(b)).map(([name, when]) => `- ${code(name)}: ${when}`),
    "",
  );
  let area = "";
  for (const [template, methods] of paths) {
    if (areaOf(template) !== area) {
      area = areaOf(template);
      lines.push(`## ${code(`/api/${area}`)}`, "");
    }
    for (const method of METHODS)
      if (methods[method]) lines.push(...operationOf(template, method, methods[method], common));
  }
  const options = (await prettier.resolveConfig(HTTP_INTERFACE_PAGE)) ?? {};
  return prettier.format(lines.join("\n"), { ...options, parser: "markdown" });
}

async function main() {
  const page = await renderHttpInterface();
  const current = (() => {
    try {
      return readFileSync(HTTP_INTERFACE_PAGE, "utf8");
    } catch {
      return "";
    }
  })();
  const relativePath = path.relative(process.cwd(), HTTP_INTERFACE_PAGE);
  if (process.argv.includes("--check")) {
    if (current !== page) {
      console.error(`${relativePath} is not current: run npm run docs:http`);
      process.exitCode = 1;
    }
    return;
  }
  if (current === page) console.log(`${relativePath} is current`);
  else {
    writeFileSync(HTTP_INTERFACE_PAGE, page);
    console.log(`wrote ${relativePath}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
