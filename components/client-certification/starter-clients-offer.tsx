"use client";

import useSWR from "swr";
import { getJson } from "@/lib/client/fetcher";

interface StarterClientSummary {
  language: string;
  title: string;
  run: string;
}

/** The catalogue; each client is its `{language}.zip` below it. */
const STARTER_CLIENTS_LIST_URL = "/api/starter-clients";

function useStarterClients(): StarterClientSummary[] {
  const { data } = useSWR<{ clients: StarterClientSummary[] }>(STARTER_CLIENTS_LIST_URL, getJson, {
    revalidateOnFocus: false,
  });
  return data?.clients ?? [];
}

function ZipLinks({ clients }: { clients: StarterClientSummary[] }) {
  return (
    <ul className="inline-flex flex-wrap gap-x-3 gap-y-1">
      {clients.map((client) => (
        <li key={client.language}>
          <a
            className="font-medium text-info underline"
            href={`${STARTER_CLIENTS_LIST_URL}/${client.language}.zip`}
            download
            title={client.run}
          >
            {client.title}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** One line for the inquiry page's Code panel and the /sandbox page: the starter clients as zips. */
export function StarterClientsLinks() {
  const clients = useStarterClients();
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 text-sm text-body">
      <span>Starter clients (standard library only, every duty of a client), as zips:</span>
      <ZipLinks clients={clients} />
    </p>
  );
}

/**
 * The starter clients beside the certification's `.env` (docs/design.md §12): each one a zip with its source, a
 * README saying how to go through these steps, and a `.env.example` the snippet above fills in.
 */
export function StarterClientsOffer() {
  const clients = useStarterClients();
  return (
    <section aria-labelledby="starter-clients" className="grid min-w-0 grid-cols-1 gap-2">
      <h4 id="starter-clients" className="text-sm font-semibold">
        Starter clients
      </h4>
      <p className="text-sm text-body">
        No application yet? Download one that does every duty these checks look for, put the <code>.env</code>{" "}
        above next to it, and run what each step asks (its README says how).
      </p>
      <div className="text-sm">
        <ZipLinks clients={clients} />
      </div>
    </section>
  );
}
