/**
 * The `subscribe` / `getSnapshot` half of the workspace's framework-free objects, for
 * `useSyncExternalStore`. The snapshot is immutable and keeps its identity until `update` changes it.
 */
export class SnapshotStore<T extends object> {
  private snapshot: T;
  private readonly listeners = new Set<() => void>();

  constructor(initial: T) {
    this.snapshot = initial;
  }

  readonly getSnapshot = (): T => this.snapshot;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Replaces the fields of `patch` that differ; tells the listeners only when something did. */
  protected update(patch: Partial<T>): void {
    const current = this.snapshot as Record<string, unknown>;
    const changed = Object.entries(patch).some(([key, value]) => !Object.is(current[key], value));
    if (!changed) return;
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}
