import { formatCents } from "@/lib/shared/money";
import { PURSES, type Purse, type PurseCents } from "./fixtures";

export { formatCents };

export function formatPurses(purses: PurseCents): Record<Purse, string> {
  return Object.fromEntries(PURSES.map((purse) => [purse, formatCents(purses[purse])])) as Record<
    Purse,
    string
  >;
}
