// Stands in for the `server-only` package under Vitest, where there is no React Server Components bundler.
export {};
