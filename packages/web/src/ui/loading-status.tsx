/** A spinner with its words, announced politely (`role="status"`). */
export function LoadingStatus({ children }: { children: string }) {
  return (
    <p role="status" className="flex items-center gap-3 py-2">
      <span className="loading loading-spinner loading-md text-primary" aria-hidden="true" />
      {children}
    </p>
  );
}
