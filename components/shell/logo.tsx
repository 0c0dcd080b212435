export function Logo() {
  return (
    <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
      <rect x="2" y="6" width="28" height="20" rx="4" className="fill-indigo-600" />
      <rect x="2" y="11" width="28" height="4" className="fill-indigo-900/60" />
      <rect x="6" y="19" width="9" height="3" rx="1" className="fill-white/90" />
    </svg>
  );
}
