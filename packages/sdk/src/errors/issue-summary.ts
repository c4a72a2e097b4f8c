import type * as z from 'zod';

/** A validation problem as zod reports it. */
export type ValidationIssue = z.core.$ZodIssue;

const SHOWN = 3;

/** `first_name: Too small…; email: Invalid email address; and 2 more`: fits on one line of CLI output. */
export function summarizeIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, SHOWN).map((issue) => {
    const where = issue.path.map(String).join('.');
    return where ? `${where}: ${issue.message}` : issue.message;
  });
  if (issues.length > SHOWN) shown.push(`and ${issues.length - SHOWN} more`);
  return shown.join('; ');
}
