import type { MeUser } from "@/lib/server/identity/me";
import { GateFrame, GateText, GateTitle } from "./gate-frame";
import { SignOutButton } from "./sign-out-button";

/** A signed-in user whose groups grant no console role: who they are, and what to ask for. Nothing else. */
export function NoRoleScreen({ user }: { user: MeUser }) {
  return (
    <GateFrame>
      <GateTitle>You have no role in this console</GateTitle>
      <GateText>
        You are signed in as <strong>{user.name}</strong>
        {user.name !== user.id ? <span className="text-muted"> ({user.id})</span> : null}, but none of your
        groups gives you a role here, so there is nothing you may do yet.
      </GateText>
      <GateText>
        Ask an administrator of the console to add you to a group that is mapped to a role in{" "}
        <code className="font-mono text-xs">ROLE_GROUPS</code>: support, engineer, tester or admin. Sign in
        again once they have.
      </GateText>
      {user.signed_in_with === "oidc" ? (
        <div className="mt-6">
          <SignOutButton variant="secondary" />
        </div>
      ) : null}
    </GateFrame>
  );
}
