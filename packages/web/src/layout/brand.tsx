/** The Planwright mark and name. */
export function BrandMark() {
  return (
    <span className="flex items-center gap-2">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7 shrink-0">
        <rect width="32" height="32" rx="7" className="fill-primary" />
        <path
          d="M10 24V8h7a5 5 0 0 1 0 10h-7"
          fill="none"
          className="stroke-primary-content"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <path d="M18 24h4" className="stroke-primary-content" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span className="font-bold tracking-tight">Planwright</span>
    </span>
  );
}
