import { GateFrame, GateText, GateTitle } from "./gate-frame";

/** A user an administrator suspended: nothing of the console, and when it ends. */
export function SuspendedScreen({ until }: { until: string }) {
  return (
    <GateFrame>
      <GateTitle>Your access is suspended</GateTitle>
      <GateText>
        An administrator of this console suspended your access until{" "}
        <time dateTime={until}>{new Date(until).toUTCString()}</time>. Ask them if you need it sooner.
      </GateText>
    </GateFrame>
  );
}
