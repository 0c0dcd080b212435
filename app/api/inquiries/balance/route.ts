// POST /api/inquiries/balance: runs Balance Inquiry; 200; answers 200 with the exchange record when the upstream answered.
import { inquiryRoute } from "@/lib/server/inquiry/inquiry-route";
import { apiRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const { POST, GET, PUT, PATCH, DELETE, OPTIONS } = inquiryRoute(
  ROUTES["/api/inquiries/balance"],
  "balance_inquiry",
  apiRoute,
);
