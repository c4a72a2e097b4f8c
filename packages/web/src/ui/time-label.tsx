import { useBrowserPorts } from '../platform/browser-ports-context';
import { shownTime } from './shown-time';

/**
 * A server time as `<time>`: relative while recent, else the date (see {@link shownTime}), the exact date and
 * time as its tooltip. "Now" is the injected clock's.
 */
export function TimeLabel({ value, className }: { value: string; className?: string }) {
  const { clock } = useBrowserPorts();
  const time = shownTime(value, clock.now());
  return (
    <time dateTime={time.iso} title={time.exact || undefined} className={className}>
      {time.label}
    </time>
  );
}
