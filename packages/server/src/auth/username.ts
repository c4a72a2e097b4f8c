/**
 * The name other users see for an account: the local part of its e-mail address (docs/http-api.md).
 * The whole address is never shown to anyone else. Not unique: two domains can share a local part.
 */
export function usernameOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? email.slice(0, at) : email;
}
