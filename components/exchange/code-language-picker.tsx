"use client";

import { useId, useState, useSyncExternalStore } from "react";
import { CODE_LANGUAGES, CODE_LANGUAGE_LABELS, type CodeLanguage } from "@/lib/shared/code-languages";
import { storeCodeLanguage, storedCodeLanguage } from "@/lib/client/preferences";

const readStoredLanguage = () => storedCodeLanguage(CODE_LANGUAGES);

function subscribeStorage(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

/** The code language picked in the Code panel or on /sandbox: one choice, remembered in this browser. */
export function useCodeLanguage(): [CodeLanguage, (language: CodeLanguage) => void] {
  // The server renders the default; the browser's remembered choice is read after hydration.
  const stored = useSyncExternalStore(subscribeStorage, readStoredLanguage, () => null);
  const [picked, setPicked] = useState<CodeLanguage | null>(null);
  const choose = (language: CodeLanguage) => {
    setPicked(language);
    storeCodeLanguage(language);
  };
  return [picked ?? stored ?? "shell", choose];
}

export function CodeLanguagePicker({
  language,
  onChange,
}: {
  language: CodeLanguage;
  onChange: (language: CodeLanguage) => void;
}) {
  const id = useId();
  return (
    <label htmlFor={id} className="flex items-center gap-1.5 text-xs text-body">
      Language
      <select
        id={id}
        value={language}
        onChange={(event) => onChange(event.target.value as CodeLanguage)}
        className="rounded-md border border-field bg-field px-2 py-1 text-xs text-fg"
      >
        {CODE_LANGUAGES.map((option) => (
          <option key={option} value={option}>
            {CODE_LANGUAGE_LABELS[option]}
          </option>
        ))}
      </select>
    </label>
  );
}
