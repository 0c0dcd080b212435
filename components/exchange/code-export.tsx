"use client";

import { useId, useState } from "react";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { operationPath } from "@/lib/shared/operations";
import {
  exchangeToCurl,
  exchangeToFetch,
  type CodeExportOptions,
  type TokenRequestTarget,
} from "@/lib/client/code-export";
import { allowsIn, useAllows } from "@/components/team/use-me";
import { useSession } from "@/lib/client/use-session-api";
import { cx } from "@/components/ui/class-names";
import { CopyButton } from "./copy-button";

type Language = "curl" | "fetch";

/**
 * The token request copied code can make first: the environment's token address and the session's client_id;
 * null for a token exchange or while the session is unknown.
 */
export function useTokenRequestTarget(exchange: ExchangeRecord): TokenRequestTarget | null {
  const { data: session } = useSession();
  const environment = session?.environments.find((item) => item.name === exchange.environment);
  const clientId = session?.credentials.client_id;
  return exchange.operation !== "token" && environment && clientId
    ? { url: `${environment.auth_url}${operationPath("token")}`, clientId }
    : null;
}

/**
 * The exchange as cURL or fetch code that runs as copied: variables for what the browser never holds,
 * a fresh Request Id per run, and optionally the token request first. `withToken` is held by the exchange
 * view, so its header's "Copy as cURL" copies the same code as this panel.
 */
export function CodeExport({
  exchange,
  options,
  withToken,
  onWithTokenChange,
}: {
  exchange: ExchangeRecord;
  /** The options already decided, token request included (null when not asked for). */
  options: CodeExportOptions;
  withToken: boolean;
  onWithTokenChange: (withToken: boolean) => void;
}) {
  const [language, setLanguage] = useState<Language>("curl");
  const withTokenId = useId();
  const isToken = exchange.operation === "token";
  const tokenTarget = useTokenRequestTarget(exchange);
  const snippet =
    language === "curl" ? exchangeToCurl(exchange, options) : exchangeToFetch(exchange, options);
  const needs = isToken || options.token ? "CLIENT_SECRET" : "ACCESS_TOKEN";
  // Copy as code is not for every role (the support desk): hidden, like every action the role may not take.
  const allows = useAllows();
  if (allows && !allowsIn(allows, "copy_as_code", exchange.environment)) return null;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <div
          role="radiogroup"
          aria-label="Code language"
          className="inline-flex rounded-md bg-slate-100 p-0.5 dark:bg-slate-800"
        >
          {(["curl", "fetch"] as const).map((option) => (
            <button
              key={option}
              type="button"
              role="radio"
              aria-checked={language === option}
              onClick={() => setLanguage(option)}
              className={cx(
                "rounded px-2.5 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-indigo-500",
                language === option
                  ? "bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white"
                  : "text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white",
              )}
            >
              {option === "curl" ? "cURL" : "fetch"}
            </button>
          ))}
        </div>
        {tokenTarget ? (
          <label
            htmlFor={withTokenId}
            className="flex items-center gap-1.5 text-xs text-slate-700 dark:text-slate-300"
          >
            <input
              id={withTokenId}
              type="checkbox"
              checked={withToken}
              onChange={(event) => onWithTokenChange(event.target.checked)}
              className="size-4 accent-indigo-600"
            />
            With token request
          </label>
        ) : null}
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Set <code className="font-mono">{needs}</code> first: the browser never holds the{" "}
          {needs === "CLIENT_SECRET" ? "secret" : "token"}.
        </p>
        <CopyButton className="ml-auto" text={snippet} label="Copy code" />
      </div>
      <pre
        tabIndex={0}
        aria-label={language === "curl" ? "cURL command" : "fetch code"}
        data-testid="code-snippet"
        className="max-h-80 overflow-auto rounded-lg bg-slate-900 p-3 font-mono text-xs leading-5 text-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-black/50"
      >
        {snippet}
      </pre>
    </div>
  );
}
