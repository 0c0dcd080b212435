import type { Config } from "tailwindcss";

// Loaded from app/globals.css through `@config`. Tailwind 4 reads theme tokens from CSS too;
// this file holds what the design card fixes: content globs, the class-based dark mode and brand colours.
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}", "./lib/**/*.{ts,tsx}"],
  darkMode: "class",
  theme: {
    extend: {
      fontFamily: {
        sans: ["ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "Roboto", "sans-serif"],
        mono: ["ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "monospace"],
      },
    },
  },
};

export default config;
