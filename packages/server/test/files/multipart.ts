/** A multipart/form-data body as `fetch` would send it, for `app.inject`. */
export async function multipartBody(
  fields: Record<string, string | { name: string; bytes: Uint8Array | string; type?: string }>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.set(key, value);
    else
      form.set(
        key,
        new Blob([value.bytes] as ConstructorParameters<typeof Blob>[0], {
          type: value.type ?? 'application/octet-stream',
        }),
        value.name,
      );
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}
