"use client";

import useSWRMutation from "swr/mutation";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { apiKeys } from "@/lib/client/api-keys";
import { sendJson } from "@/lib/client/fetcher";
import { closeHistoryStores } from "@/lib/client/history-store";
import { clearUserState } from "@/lib/client/user-scope";
import type { LogoutResult } from "@/lib/shared/contracts";

/**
 * Ends the session on the server (every instance: a copied cookie stops working), removes what this browser
 * kept for the user (history, remembered fields, the support reason and lookups: the next person at this
 * browser starts clean), then goes where the server says: the provider's sign-out, which comes back to
 * /signed-out.
 */
export function SignOutButton({ variant = "ghost" }: { variant?: ButtonVariant }) {
  const { trigger, isMutating, error } = useSWRMutation(apiKeys.logout, sendJson<LogoutResult>("POST"));
  async function signOut() {
    try {
      const answer = await trigger({});
      await clearUserState(closeHistoryStores);
      window.location.assign(answer.redirect);
    } catch {
      // Shown below; the session may still be live, so the user can try again.
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <Button size="sm" variant={variant} busy={isMutating} onClick={() => void signOut()}>
        Sign out
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-danger">
          Not signed out: {error.message}
        </span>
      ) : null}
    </span>
  );
}
