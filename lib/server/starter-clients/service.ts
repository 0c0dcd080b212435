/**
 * The starter clients' zips, built on first request and kept for the process: the folders are part of the build,
 * so they never change under a running server. A zip holds exactly the files ./files.mjs lists for its language
 * (an allowlist, the one the standalone build copies): whatever a run leaves in the folder is never shipped. Only
 * catalogue languages are built, so no caller can add an entry.
 */
import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { zipSync } from "fflate";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import { STARTER_CLIENTS, starterClient, type StarterClient } from "./catalogue";
import { STARTER_CLIENT_FILES, STARTER_CLIENT_TESTING_FILES } from "./files.mjs";

interface StarterClientZip {
  fileName: string;
  zip: Uint8Array;
}

export interface StarterClientsService {
  list(): { clients: { language: string; title: string; run: string }[] };
  /** 404 `not_found` for a language the catalogue does not hold, or whose folder the build does not ship. */
  zip(language: string): Promise<StarterClientZip>;
}

// Fixed, so the same sources always give the same bytes.
const ZIP_MTIME = new Date("2026-01-01T00:00:00Z");

/** The client's files as ./files.mjs lists them, or null when the build lacks one of them. */
async function filesOf(folder: string, listed: readonly string[]): Promise<Map<string, Uint8Array> | null> {
  const files = new Map<string, Uint8Array>();
  for (const name of listed) {
    try {
      files.set(name, await readFile(path.join(folder, ...name.split("/"))));
    } catch {
      logger.warn({ folder, file: name }, "a starter client's listed file is missing: its zip is not served");
      return null;
    }
  }
  return files;
}

async function buildZip(appDir: string, client: StarterClient): Promise<StarterClientZip> {
  const folder = path.join(appDir, client.folder);
  const own = await filesOf(folder, STARTER_CLIENT_FILES[client.language] ?? []);
  const testing = await filesOf(path.dirname(folder), STARTER_CLIENT_TESTING_FILES);
  const files = own && testing ? new Map([...own, ...testing]) : null;
  if (!files || files.size === 0)
    throw new ApiError("not_found", `The ${client.title} starter client is not part of this build.`);
  const top = `card-api-client-${client.language}`;
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const [name, bytes] of files) entries[`${top}/${name}`] = [bytes, { mtime: ZIP_MTIME }];
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
