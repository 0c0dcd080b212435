/**
 * Checks real requests and responses against an OpenAPI 3.1 document with a JSON Schema 2020-12 validator
 * (ajv): the schema of `method path` for that status (or `default`), with the document's components.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

type Json = Record<string, unknown>;

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly definitions: Json;

  constructor(readonly document: Json) {
    const components = (document.components as Json | undefined)?.schemas ?? {};
    // Components become $defs of every compiled schema; their references are rewritten to match.
    this.definitions = JSON.parse(JSON.stringify(components).replaceAll("#/components/schemas/", "#/$defs/"));
  }

  private operation(method: string, path: string): Json {
    const operation = (this.document.paths as Record<string, Json> | undefined)?.[path]?.[
      method.toLowerCase()
    ];
    if (!operation) throw new Error(`the document has no ${method} ${path}`);
    return operation as Json;
  }

  private compile(key: string, schema: unknown): ValidateFunction {
    let validate = this.cache.get(key);
    if (!validate) {
      const rewritten = JSON.parse(JSON.stringify(schema).replaceAll("#/components/schemas/", "#/$defs/"));
      validate = this.ajv.compile({ ...rewritten, $defs: this.definitions });
      this.cache.set(key, validate);
    }
    return validate;
  }

  private check(key: string, schema: unknown, value: unknown): string[] {
    const validate = this.compile(key, schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || "(body)"} ${error.message}`);
  }

  /** Problems of a response body for `method path` answering `status` ([] when it matches). */
  response(method: string, path: string, status: number, body: unknown): string[] {
    const responses = this.operation(method, path).responses as Record<string, Json>;
    const documented = responses[String(status)] ? String(status) : "default";
    const response = responses[documented];
    if (!response) return [`${method} ${path}: status ${status} is not documented and there is no default`];
    const schema = (response.content as Json | undefined)?.["application/json"] as Json | undefined;
    if (!schema?.schema) return [`${method} ${path} ${documented}: no application/json schema`];
    return this.check(`${method} ${path} ${documented}`, schema.schema, body);
  }

  /** Problems of a request body for `method path`. */
  requestBody(method: string, path: string, body: unknown): string[] {
    const requestBody = this.operation(method, path).requestBody as Json | undefined;
    const schema = ((requestBody?.content as Json | undefined)?.["application/json"] as Json | undefined)
      ?.schema;
    if (!schema) return [`${method} ${path}: no request body schema`];
    return this.check(`${method} ${path} request`, schema, body);
  }

  /** Compiles every component schema (a schema the validator refuses is a broken document). */
  compileAll(): void {
    for (const name of Object.keys(this.definitions))
      this.compile(`component ${name}`, { $ref: `#/$defs/${name}` });
  }
}
