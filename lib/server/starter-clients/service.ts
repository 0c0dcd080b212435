/**
 * The starter clients' zips, built from their folders on first request and kept for the process: the folders
 * are part of the build, so they never change under a running server. Only catalogue languages are built, so
 * no caller can add an entry.
 */
import "server-only";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { zipSync } from "fflate";
import { ApiError } from "@/lib/server/util/errors";
import { STARTER_CLIENTS, starterClient, type StarterClient } from "./catalogue";

interface StarterClientZip {
  fileName: string;
  zip: Uint8Array;
}

export interface StarterClientsService {
  list(): { clients: { language: string; title: string; run: string }[] };
  /** 404 `not_found` for a language the catalogue does not hold, or whose folder the build does not ship. */
  zip(language: string): Promise<StarterClientZip>;
}

// What running a client leaves in its folder: never shipped (the token cache holds a live token).
const LEFT_BY_RUNS = new Set([
  ".env",
  ".card-api-token.json",
  "__pycache__",
  "node_modules",
  "cardapiclient",
]);
// Fixed, so the same sources always give the same bytes.
const ZIP_MTIME = new Date("2026-01-01T00:00:00Z");

async function filesOf(folder: string, below = ""): Promise<string[]> {
  const entries = await readdir(path.join(folder, below), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (LEFT_BY_RUNS.has(entry.name) || /\.(tmp|class)$/.test(entry.name)) continue;
    const relative = below ? `${below}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await filesOf(folder, relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files;
}

async function buildZip(appDir: string, client: StarterClient): Promise<StarterClientZip> {
  const folder = path.join(appDir, client.folder);
  const names = await filesOf(folder).catch(() => []);
  if (names.length === 0)
    throw new ApiError("not_found", `The ${client.title} starter client is not part of this build.`);
  const top = `card-api-client-${client.language}`;
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const name of names)
    entries[`${top}/${name}`] = [await readFile(path.join(folder, name)), { mtime: ZIP_MTIME }];
  return { fileName: `${top}.zip`, zip: zipSync(entries, { level: 9 }) };
}

/** `appDir`: the folder the server runs from (the repository, or the standalone output). */
export function createStarterClientsService(appDir: string = process.cwd()): StarterClientsService {
  const built = new Map<string, Promise<StarterClientZip>>();
  return {
    list: () => ({ clients: STARTER_CLIENTS.map(({ language, title, run }) => ({ language, title, run })) }),
    zip(language) {
      const client = starterClient(language);
      if (!client)
        return Promise.reject(new ApiError("not_found", `No starter client for the language "${language}".`));
      let zip = built.get(language);
      if (!zip) {
        zip = buildZip(appDir, client);
        built.set(language, zip);
        // A failed build (a folder missing) is tried again by the next caller.
        zip.catch(() => built.delete(language));
      }
      return zip;
    },
  };
}
