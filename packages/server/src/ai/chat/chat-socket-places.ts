/**
 * The chat sockets each user holds open on this instance, at most `perUser` of them (CHAT_SOCKETS_PER_USER,
 * docs/security.md): one account cannot pin an unbounded number of sockets and their memory. A socket takes
 * its place once it has authenticated and gives it back when it closes.
 */
export class ChatSocketPlaces {
  private readonly byUser = new Map<string, Set<object>>();
  private readonly userOf = new Map<object, string>();

  constructor(private readonly perUser: number) {}

  /** Takes a place among `userId`'s sockets for `holder`; false when the user already holds every place. */
  take(userId: string, holder: object): boolean {
    if (this.userOf.has(holder)) return true;
    const held = this.byUser.get(userId) ?? new Set<object>();
    if (held.size >= this.perUser) return false;
    held.add(holder);
    this.byUser.set(userId, held);
    this.userOf.set(holder, userId);
    return true;
  }

  /** Gives `holder`'s place back; nothing happens when it holds none. */
  release(holder: object): void {
    const userId = this.userOf.get(holder);
    if (userId === undefined) return;
    this.userOf.delete(holder);
    const held = this.byUser.get(userId);
    held?.delete(holder);
    // An empty set per user who ever chatted would grow without end.
    if (held?.size === 0) this.byUser.delete(userId);
  }

  /** How many places `userId` holds. */
  heldBy(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }
}
