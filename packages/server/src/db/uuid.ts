const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` can be compared with a uuid column: PostgreSQL rejects anything else with an error,
 * so ids from paths and queries are checked first and a malformed one reads as "not found".
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
