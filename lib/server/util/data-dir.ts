/** DATA_DIR: where the console keeps its files (the embedded database, generated keys, audit checkpoints). */
import path from "node:path";

const DEFAULT_DATA_DIR = ".data";

export function resolveDataDir(dataDir: string | undefined): string {
  return path.resolve(dataDir && dataDir.length > 0 ? dataDir : DEFAULT_DATA_DIR);
}
