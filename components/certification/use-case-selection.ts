"use client";

import { useState } from "react";
import type { CaseInfo } from "@/lib/shared/certification-contract";

/** The catalogue's cases picked for a run: every case at first, switched on and off a group at a time. */
export function useCaseSelection(catalogue: CaseInfo[]) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set(catalogue.map((item) => item.id)));

  function toggle(ids: string[], on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }

  return { selected, toggle };
}
