"use client";

import Link from "next/link";
import { useState } from "react";
import { RunDetail } from "./run-detail";

/** One docs/design.md §8 run on a page of its own (a monitor's alert links here): the same view the certification page shows. */
export function RunPage({ id }: { id: string }) {
  const [baselineId, setBaselineId] = useState<string | null>(null);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <p className="text-sm">
        <Link href="/certification" className="text-accent underline">
          All certification runs
        </Link>
        {" · "}
        <Link href="/monitors" className="text-accent underline">
          Monitors
        </Link>
      </p>
      <RunDetail id={id} baselineId={baselineId} onBaseline={setBaselineId} />
    </div>
  );
}
