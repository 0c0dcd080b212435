import type { Metadata } from "next";
import { SignedOutView } from "@/components/team/signed-out-view";

export const metadata: Metadata = { title: "Signed out" };

export default async function SignedOutPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { error } = await searchParams;
  const code = typeof error === "string" && /^[a-z_]{1,64}$/.test(error) ? error : null;
  return <SignedOutView error={code} />;
}
