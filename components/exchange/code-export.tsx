"use client";

import { useState } from "react";
import type { ExchangeRecord } from "@/lib/api/contracts";
import { exchangeToCurl, exchangeToFetch, type CodeExportOptions } from "@/lib/client/code-export";
import { cx } from "@/components/ui/class-names";
import { CopyButton } from "./copy-button";

type Language = "curl" | "fetch";

/** The exchange as cURL or fetch code with `$ACCESS_TOKEN` (or `$CLIENT_SECRET`) placeholders. */
export function CodeExport({ exchange, options }: { exchange: ExchangeRecord; options: CodeExportOptions }) {
  const [language, setLanguage] = useState<Language>("curl");
  const snippet =
    language === "curl" ? exchangeToCurl(exchange, options) : exchangeToFetch(exchange, options);
  const isToken = exchange.operation === "token";

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
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
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Set <code className="font-mono">{isToken ? "CLIENT_SECRET" : "ACCESS_TOKEN"}</code> first: the
          browser never holds the {isToken ? "secret" : "token"}.
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
