import { Alert } from "@/components/ui/alert";

/** History (IndexedDB) could not be read: the reason, and the usual cause. */
export function HistoryReadError({ error }: { error: Error }) {
  return (
    <Alert tone="danger" title="History could not be read" role="alert">
      <p>{error.message}</p>
      <p>This browser may block IndexedDB (private mode or a site data policy).</p>
    </Alert>
  );
}
