/** A run as the browser's history keeps it (its type is its import schema's), and what a new one is made from. */
import type { ExchangeRecord, TokenMetadata } from "@/lib/shared/contracts";

export type { HistoryExport, HistoryRun } from "./history-schema";

export interface NewRun {
  exchange: ExchangeRecord;
  /** The card number as typed (full) or as recorded (masked); only its masked form is kept. */
  cardNumber?: string | null;
  locationId?: string | null;
  token?: TokenMetadata | null;
}
