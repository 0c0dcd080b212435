import type { CaseContext } from "../context";
import type { CaseInfo } from "@/lib/shared/certification-contract";

export interface CaseDefinition extends CaseInfo {
  /** The specification is silent: what the upstream does is recorded (`observed`), unless a check fails. */
  observational?: boolean;
  run(context: CaseContext): Promise<void>;
}
