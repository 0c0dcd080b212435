"use client";

import { useId } from "react";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { operationPath } from "@/lib/shared/operations";
import type { CodeExportOptions, TokenRequestTarget } from "@/lib/client/code-export";
import { CODE_LANGUAGE_LABELS, TOKEN_PRELUDE_LANGUAGES } from "@/lib/shared/code-languages";
import { allowsIn, useAllows } from "@/components/team/use-me";
import { useSession } from "@/lib/client/use-session-api";
import { codeGenerator } from "./code-generator";
import { CodeLanguagePicker, useCodeLanguage } from "./code-language-picker";
import { CopyButton } from "./copy-button";

/**
 * The token request copied code can make first: the environment's token address and the session's client_id;
 * null for a token exchange or while the session is unknown.
 */
export function useTokenRequestTarget(exchange: ExchangeRecord): TokenRequestTarget | null {
  const { data: session } = useSession();
  const environment = session?.environments.find((item) => item.name === exchange.environment);
  return exchange.operation !== "token" && environment
    ? { url: `${environment.auth_url}${operationPath("token")}` }
    : null;
}

/**
 * The exchange as code in the language the user picked (remembered in this browser) that runs as copied:
 * variables for what the browser never holds, a fresh Request Id per run, and for shell and JavaScript
 * optionally the token request first. `withToken` is held by the exchange
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
  const [language, setLanguage] = useCodeLanguage();
  const withTokenId = useId();
  const isToken = exchange.operation === "token";
  const tokenTarget = useTokenRequestTarget(exchange);
  const fetchesToken = Boolean(options.token) && TOKEN_PRELUDE_LANGUAGES.has(language);
  const generator = codeGenerator.useModule();
  const snippet = generator ? generator.exchangeToCode(exchange, language, options) : null;
  const needs = isToken || fetchesToken ? "CLIENT_ID and CLIENT_SECRET" : "ACCESS_TOKEN";
  // Copy as code is not for every role (the support desk): hidden, like every action the role may not take.
  const allows = useAllows();
  if (allows && !allowsIn(allows, "copy_as_code", exchange.environment)) return null;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <CodeLanguagePicker language={language} onChange={setLanguage} />
        {tokenTarget && TOKEN_PRELUDE_LANGUAGES.has(language) ? (
          <label htmlFor={withTokenId} className="flex items-center gap-1.5 text-xs text-body">
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
        <p className="text-xs text-muted">
          Set <code className="font-mono">{needs}</code> first: the browser never holds the{" "}
          {needs === "ACCESS_TOKEN" ? "token" : "secret"}.
        </p>
        {snippet === null ? null : <CopyButton className="ml-auto" text={snippet} label="Copy code" />}
      </div>
      <pre
        tabIndex={0}
        aria-label={`${CODE_LANGUAGE_LABELS[language]} code`}
        data-testid="code-snippet"
        data-language={language}
        className="max-h-80 overflow-auto rounded-lg bg-code p-3 font-mono text-xs leading-5 text-code focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        {snippet ?? "Loading the code generator…"}
      </pre>
    </div>
  );
}
