import { GateFrame, GateTitle } from "./gate-frame";
import { SuspensionNotice } from "./suspension-notice";

/** A user an administrator suspended: nothing of the console, until when (local time); back by itself when lifted. */
export function SuspendedScreen({ until }: { until: string }) {
  return (
    <GateFrame>
      <GateTitle>Your access is suspended</GateTitle>
      <SuspensionNotice until={until} before="An administrator of this console suspended your access" />
    </GateFrame>
  );
}
