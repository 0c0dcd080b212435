import Link from "next/link";

function Logo() {
  return (
    <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
      <rect x="2" y="6" width="28" height="20" rx="4" className="fill-indigo-600" />
      <rect x="2" y="11" width="28" height="4" className="fill-indigo-900/60" />
      <rect x="6" y="19" width="9" height="3" rx="1" className="fill-white/90" />
    </svg>
  );
}

/** The console's name with its mark, linking home: the same in the console's header and the sign-in frame. */
export function BrandLink() {
  return (
    <Link
      href="/"
      className="mr-auto flex items-center gap-2 rounded-md font-semibold tracking-tight text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
    >
      <Logo />
      <span>
        Card Services <span className="font-normal text-muted">Console</span>
      </span>
    </Link>
  );
}
