import { useState, useSyncExternalStore } from "react";
import { storedLocationId } from "./preferences";

const noSubscription = () => () => {};

/**
 * The location_id field of a form: the one remembered in this browser (lib/client/preferences.ts) until the
 * user edits it, else `fallback`. Read after hydration: the server has no localStorage and renders `fallback`.
 */
export function useRememberedLocation(fallback: string): [string, (locationId: string) => void] {
  const remembered = useSyncExternalStore(noSubscription, storedLocationId, () => null);
  const [edited, setEdited] = useState<string | null>(null);
  return [edited ?? remembered ?? fallback, setEdited];
}
