import type { SignInErrorCode } from "@/lib/server/identity/oidc";
import { GateFrame, GateText, GateTitle } from "./gate-frame";
import { SignInLink } from "./sign-in-link";

/** What each sign-in failure (SignInError code of lib/server/identity/oidc.ts) means to the person who tried. */
const SIGN_IN_ERROR_MESSAGES: Record<SignInErrorCode, string> = {
  state_mismatch:
    "The answer from the sign-in page did not belong to the sign-in this browser started (for example, it came from another tab or an old link). Nothing was signed in.",
  sign_in_expired: "The sign-in took too long and expired. Start again.",
  provider_error: "Your organisation's sign-in service refused the sign-in (for example, access was denied).",
  code_rejected:
    "The sign-in service did not accept the sign-in code (it may have been used already or expired). Start again.",
  invalid_response:
    "The sign-in service's answer could not be verified, so it was not trusted. If this keeps happening, tell the console's administrator.",
  provider_unreachable:
    "The console could not reach your organisation's sign-in service. Try again in a moment; if it persists, tell the console's administrator.",
  user_suspended:
    "An administrator of this console suspended your access for a while. Ask them when it ends, or to lift it.",
  invalid_callback: "No sign-in was in progress in this browser, or the answer was incomplete. Start again.",
};

/** After a sign-out, or when a sign-in failed (`error` is its code). */
export function SignedOutView({ error }: { error: string | null }) {
  const failed = error !== null;
  return (
    <GateFrame>
      <GateTitle>{failed ? "Sign-in did not complete" : "You are signed out"}</GateTitle>
      {failed ? (
        <div role="alert">
          <GateText>
            {SIGN_IN_ERROR_MESSAGES[error as SignInErrorCode] ??
              "The sign-in failed for a reason the console did not recognise."}
          </GateText>
          <p className="mt-2 font-mono text-xs text-muted">{error}</p>
        </div>
      ) : (
        <GateText>
          Your session has ended on the console: a copy of its cookie no longer works. Close the browser if
          this is a shared computer.
        </GateText>
      )}
      <div className="mt-6">
        <SignInLink label={failed ? "Try again" : "Sign in again"} returnTo="/" />
      </div>
    </GateFrame>
  );
}
