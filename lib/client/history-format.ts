/** What names a history export file (lib/client/history-store.ts writes it, history-schema.ts reads it). */
export const HISTORY_EXPORT_FORMAT = "card-services-console-history";
export const HISTORY_EXPORT_VERSION = 1;
