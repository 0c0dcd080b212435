import { formatCents } from "../api/money";
import { PURSES, type Purse, type PurseCents } from "./fixtures";

export { formatCents };

export function formatPurses(purses: PurseCents): Record<Purse, string> {
  return Object.fromEntries(PURSES.map((purse) => [purse, formatCents(purses[purse])])) as Record<
    Purse,
    string
  >;
}
