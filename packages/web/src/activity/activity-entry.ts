import type { Activity, ActivitySeverity } from '@planwright/sdk';

/** Who an entry names when the server gave no label and no actor (a system event, say). */
export const UNKNOWN_ACTOR = 'Someone';

/** An activity entry as a panel shows it (SPEC.md AC4, AC5). */
export interface ActivityEntryView {
  id: string;
  /** `actor_label`, else the actor's first name, else their username, else `Someone`. */
  actor: string;
  /** The server's sentence, else `{verb} {target_label}`. */
  text: string;
  /** What it happened to (`Acme plan › Market Analysis`), when the server said and the sentence does not. */
  target: string | null;
  severity: ActivitySeverity;
  created_at: string;
}

function nonBlank(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** AC4: how one entry reads. Labels are shown as stored; the page renders them as text, never as HTML. */
export function activityEntryView(activity: Activity): ActivityEntryView {
  const actor =
    nonBlank(activity.actor_label) ??
    nonBlank(activity.actor?.first_name) ??
    nonBlank(activity.actor?.username) ??
    UNKNOWN_ACTOR;
  const message = nonBlank(activity.message);
  const targetParts = [nonBlank(activity.target_label), nonBlank(activity.child_target_label)].filter(
    (part): part is string => part !== undefined,
  );
  const target = targetParts.length > 0 ? targetParts.join(' › ') : null;
  const text = message ?? [nonBlank(activity.verb) ?? 'updated', target].filter(Boolean).join(' ');
  return {
    id: activity.id,
    actor,
    text,
    target: message !== undefined && target !== null && !message.includes(target) ? target : null,
    severity: activity.severity,
    created_at: activity.created_at,
  };
}

/**
 * AC5: how each severity looks: the dot's daisyUI colour, and a badge naming it (so colour is never the only
 * sign) for all but the ordinary `info`.
 */
export const SEVERITY_STYLE: Record<
  ActivitySeverity,
  { status: string; badge: string | null; label: string }
> = {
  error: { status: 'status-error', badge: 'badge-error', label: 'Error' },
  warning: { status: 'status-warning', badge: 'badge-warning', label: 'Warning' },
  system: { status: 'status-neutral', badge: 'badge-ghost', label: 'System' },
  info: { status: 'status-info', badge: null, label: 'Info' },
};
