"use client";

import type { TokenMetadata } from "@/lib/shared/contracts";
import { formatDuration, tokenClock, useNow } from "@/lib/client/use-now";
import { cx } from "@/components/ui/class-names";

function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

/** Countdown, progress bar and absolute times of a token's lifetime. */
export function TokenLifetime({ token }: { token: TokenMetadata }) {
  const now = useNow();
  const clock = now ? tokenClock(token.issued_at, token.expires_at, now) : null;
  const percent = Math.round((clock?.fractionLeft ?? 1) * 100);
  const low = clock !== null && !clock.expired && (clock.fractionLeft < 0.1 || clock.remainingSeconds < 300);

  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-x-6 gap-y-1">
        <div>
          <p className="text-xs font-medium tracking-wide text-muted uppercase">
            {clock?.expired ? "Expired" : "Expires in"}
          </p>
          <p
            className={cx(
              "font-mono text-3xl font-semibold tabular-nums",
              clock?.expired ? "text-danger" : low ? "text-warning" : "text-fg",
            )}
            data-testid="token-countdown"
          >
            {clock === null ? "–:––:––" : clock.expired ? "0:00" : formatDuration(clock.remainingSeconds)}
          </p>
        </div>
        <p className="text-sm text-body">
          at{" "}
          <time dateTime={token.expires_at} className="font-medium text-fg">
            {formatDateTime(token.expires_at)}
          </time>
        </p>
      </div>
      <div
        role="progressbar"
        aria-label="Token lifetime left"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% of the lifetime left`}
        className="mt-3 h-2 overflow-hidden rounded-full bg-track"
      >
        <div
          className={cx(
            "h-full rounded-full transition-[width] duration-1000 ease-linear motion-reduce:transition-none",
            clock?.expired ? "bg-red-500" : low ? "bg-amber-500" : "bg-emerald-500",
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-xs text-muted">Issued at</dt>
          <dd className="mt-0.5 text-fg">
            <time dateTime={token.issued_at}>{formatDateTime(token.issued_at)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Lifetime (expires_in)</dt>
          <dd className="mt-0.5 text-fg">
            {token.expires_in} s <span className="text-muted">({formatDuration(token.expires_in)})</span>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Token type</dt>
          <dd className="mt-0.5 font-mono text-fg">{token.token_type}</dd>
        </div>
      </dl>
    </div>
  );
}
