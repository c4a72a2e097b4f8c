/** A `Blob` or `File`, also from another realm (a test runner's, an iframe's), where `instanceof` fails. */
export function isBlob(value: unknown): value is Blob {
  const tag = Object.prototype.toString.call(value);
  return (
    tag === '[object Blob]' ||
    tag === '[object File]' ||
    (typeof Blob !== 'undefined' && value instanceof Blob)
  );
}
