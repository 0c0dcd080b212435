/** A run as the browser's history keeps it, and the export document that carries runs between browsers. */
import type { ExchangeRecord, TokenMetadata } from "@/lib/shared/contracts";
import type { HISTORY_EXPORT_FORMAT, HISTORY_EXPORT_VERSION } from "./history-format";

export interface HistoryRun {
  /** The exchange record's id. */
  id: string;
  /** Copy of `exchange.started_at`: the sort key. */
  started_at: string;
  saved_at: string;
  exchange: ExchangeRecord;
  /** Masked card number and its last 4 digits, for inquiries. */
  card: { masked: string; last4: string } | null;
  location_id: string | null;
  /** For token requests: the token's metadata (scopes, expiry, claims, fingerprint), never the token. */
  token: TokenMetadata | null;
}

export interface NewRun {
  exchange: ExchangeRecord;
  /** The card number as typed (full) or as recorded (masked); only its masked form is kept. */
  cardNumber?: string | null;
  locationId?: string | null;
  token?: TokenMetadata | null;
}

export interface HistoryExport {
  format: typeof HISTORY_EXPORT_FORMAT;
  version: typeof HISTORY_EXPORT_VERSION;
  exported_at: string;
  runs: HistoryRun[];
}
