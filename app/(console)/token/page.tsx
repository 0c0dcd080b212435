import type { Metadata } from "next";
import { TokenView } from "@/components/token/token-view";

export const metadata: Metadata = { title: "Token" };

export default function TokenPage() {
  return <TokenView />;
}
