import type { AuthMode } from "@/lib/server/identity/me";
import { GateFrame, GateText, GateTitle } from "./gate-frame";
import { SignInLink } from "./sign-in-link";

/**
 * What a visitor who is not signed in sees instead of any console page. `oidc`: a button to the organisation's
 * provider (named by `OIDC_DISPLAY_NAME`, else by its host), back to this page after. `proxy`: the proxy in front did not name them, so
 * there is nothing to sign in to here.
 */
export function SignInScreen({
  mode,
  provider,
}: {
  mode: Exclude<AuthMode, "none">;
  provider: string | null;
}) {
  if (mode === "proxy") {
    return (
      <GateFrame>
        <GateTitle>You are not identified</GateTitle>
        <GateText>
          This console signs people in through the proxy in front of it, and that proxy did not say who you
          are. Open the console through your organisation&rsquo;s usual address (the one that asks you to sign
          in), or ask the administrator of the proxy.
        </GateText>
      </GateFrame>
    );
  }
  return (
    <GateFrame>
      <GateTitle>Sign in to the Card Services Console</GateTitle>
      <GateText>
        This console is for your team: sign in with your organisation&rsquo;s account. What you may do depends
        on the groups your account is in.
      </GateText>
      <div className="mt-6">
        <SignInLink label={provider ? `Sign in with ${provider}` : "Sign in"} />
      </div>
    </GateFrame>
  );
}
