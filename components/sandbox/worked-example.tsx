"use client";

import { useId, useState, useSyncExternalStore } from "react";
import { CODE_LANGUAGES, CODE_LANGUAGE_LABELS, type CodeLanguage } from "@/lib/shared/code-languages";
import type { WorkedExample as Example } from "@/lib/sandbox/docs";
import { storeCodeLanguage, storedCodeLanguage } from "@/lib/client/preferences";
import { CodeBlock } from "./code-block";

const readStoredLanguage = () => storedCodeLanguage(CODE_LANGUAGES);

function subscribeStorage(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

/**
 * The worked example in the language picked here or in the Code panel (one choice, remembered in this browser).
 * The server writes every language with the Code panel's generator, so the page loads no generator.
 */
export function WorkedExample({ examples }: { examples: Record<CodeLanguage, Example> }) {
  // The server renders the default; the browser's remembered choice is read after hydration.
  const stored = useSyncExternalStore(subscribeStorage, readStoredLanguage, () => null);
  const [picked, setLanguage] = useState<CodeLanguage | null>(null);
  const language = picked ?? stored ?? "shell";
  const languageId = useId();
  const example = examples[language];
  const label = CODE_LANGUAGE_LABELS[language];
  return (
    <div className="space-y-3">
      <label
        htmlFor={languageId}
        className="flex items-center gap-1.5 text-xs text-slate-700 dark:text-slate-300"
      >
        Language
        <select
          id={languageId}
          value={language}
          onChange={(event) => {
            const chosen = event.target.value as CodeLanguage;
            setLanguage(chosen);
            storeCodeLanguage(chosen);
          }}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        >
          {CODE_LANGUAGES.map((option) => (
            <option key={option} value={option}>
              {CODE_LANGUAGE_LABELS[option]}
            </option>
          ))}
        </select>
      </label>
      {example.token === null ? (
        <CodeBlock
          title={`Token, then Gift Balance Inquiry (${label})`}
          code={example.inquiry}
          copyLabel="Copy the example"
        />
      ) : (
        <>
          <CodeBlock
            title={`1. Request an access token (${label})`}
            code={example.token}
            copyLabel="Copy step 1"
          />
          <CodeBlock
            title={`2. Gift Balance Inquiry with ACCESS_TOKEN set (${label})`}
            code={example.inquiry}
            copyLabel="Copy step 2"
          />
        </>
      )}
    </div>
  );
}
