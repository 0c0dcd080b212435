/**
 * How a batched writer (the audit log's group commit, the team-run writer) writes one batch: in one statement,
 * and when the database refuses it, again entry by entry, so that one bad entry fails alone and the others are
 * still written. Each entry the database still refuses is rejected with its own error.
 */
import "server-only";

export async function writeBatchOrEach<Entry extends { reject: (error: unknown) => void }>(
  batch: Entry[],
  /** Writes the entries given and settles them; throws when the database refuses the statement. */
  commit: (entries: Entry[]) => Promise<void>,
): Promise<void> {
  try {
    await commit(batch);
  } catch (error) {
    if (batch.length === 1) batch[0]!.reject(error);
    else for (const entry of batch) await commit([entry]).catch(entry.reject);
  }
}
