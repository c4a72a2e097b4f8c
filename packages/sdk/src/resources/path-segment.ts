import { InvalidInputError } from '../errors/invalid-input-error.js';

/**
 * One identifier as a URL path segment. `encodeURIComponent` keeps `/`, `?` and `#` from changing the
 * path, but leaves `.` alone, and a URL parser resolves `.` and `..` segments: `documents/../` would
 * be `GET /api/v1/`. So those, and empty identifiers, are refused before anything is sent.
 *
 * @throws InvalidInputError naming `label` (`uuid`, `sectionUuid`, …).
 */
export function pathSegment(value: string, label: string): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new InvalidInputError({
      issues: [
        {
          code: 'custom',
          path: [label],
          message: 'must not be empty, "." or ".."',
          input: value,
        },
      ],
      subject: 'request',
    });
  }
  return encodeURIComponent(value);
}
