/**
 * Fixed statements on PGlite as named prepared statements: parsed and planned once, then each call is a single
 * Bind/Describe/Execute/Sync round into the database. PGlite's own `query` makes five calls into WebAssembly per
 * statement (parse, two describes, bind, execute) and parses and plans the text every time, which costs more
 * than writing the rows of a batch.
 *
 * Parameters are sent as text, so the statement must cast each one (`$1::bigint`, `$2::text[]`).
 */
import "server-only";
import type { PGlite, protocol, types } from "@electric-sql/pglite";

type BackendMessage = Awaited<ReturnType<PGlite["execProtocol"]>>["messages"][number];
interface DescribedRow {
  name: "rowDescription";
  fields: { name: string }[];
}
interface DataRow {
  name: "dataRow";
  fields: (string | null)[];
}

export type PreparedQuery = (text: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>;

interface PgliteParts {
  serialize: typeof protocol.serialize;
  arraySerializer: typeof types.arraySerializer;
}

const TEXT_ARRAY_OID = 1009;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function rowsOf(messages: BackendMessage[]): Record<string, unknown>[] {
  const description = messages.find((message) => message.name === "rowDescription") as
    DescribedRow | undefined;
  if (!description) return [];
  const names = description.fields.map((field) => field.name);
  return messages
    .filter((message): message is BackendMessage & DataRow => message.name === "dataRow")
    .map((row) => Object.fromEntries(names.map((name, index) => [name, row.fields[index] ?? null])));
}

/** `queryPrepared(text, params)` for one PGlite client; not for use inside one of its transactions. */
export function pglitePreparedQueries(
  client: PGlite,
  { serialize, arraySerializer }: PgliteParts,
): PreparedQuery {
  const names = new Map<string, string>();
  const asParameter = (value: unknown): string | null =>
    value === null || value === undefined
      ? null
      : Array.isArray(value)
        ? arraySerializer(value, undefined, TEXT_ARRAY_OID)
        : value instanceof Date
          ? value.toISOString()
          : String(value);

  async function nameOf(text: string): Promise<string> {
    const known = names.get(text);
    if (known) return known;
    const name = `console_prepared_${names.size + 1}`;
    await client.execProtocol(concat([serialize.parse({ name, text }), serialize.sync()]));
    names.set(text, name);
    return name;
  }

  // Both of PGlite's locks, as its `query` takes them: no statement of another caller's transaction runs between.
  // Inside them, a closed database is an error rather than a call into a torn-down instance.
  return (text, params) =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        await client._checkReady();
        const statement = await nameOf(text);
        const values = params.map(asParameter);
        const { messages } = await client.execProtocol(
          concat([
            serialize.bind({ statement, values }),
            // The portal's row description: the names of the rows' fields.
            serialize.describe({ type: "P" }),
            serialize.execute({}),
            serialize.sync(),
          ]),
        );
        return rowsOf(messages);
      }),
    );
}
