/** The sandbox's paths below its base address (DESIGN.md §3, §5). */
export const PATHS = {
  token: "/reporting/v1/auth/token",
  giftBalanceInquiry: "/transaction/v1/gift/balance-inquiry",
  balanceInquiry: "/transaction/v1/balance-inquiry",
  transactionByRequestIdPrefix: "/transaction/v1/transactions/request-id/",
  hooks: "/__sandbox/",
} as const;
