export type {
  AuditPageJson as AuditPageView,
  AuditRowJson as AuditRowView,
  ChainVerdict,
} from "@/lib/shared/audit-contract";
