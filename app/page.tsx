import Link from "next/link";

export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <h1 className="text-3xl font-semibold">Card Services Console</h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        Request OAuth 2.0 client-credentials tokens, run Gift Balance Inquiry and Balance Inquiry, and compare
        the responses side by side. Secrets and tokens stay on the server.
      </p>
      <p className="mt-6">
        <Link className="text-blue-700 underline dark:text-blue-300" href="/sandbox">
          Start with the embedded sandbox
        </Link>
      </p>
    </main>
  );
}
