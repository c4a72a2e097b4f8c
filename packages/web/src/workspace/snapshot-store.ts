import { Subscribable } from '@planwright/sdk';

/**
 * The `subscribe` / `getSnapshot` half of the workspace's framework-free objects, for
 * `useSyncExternalStore`. The snapshot is immutable and keeps its identity until `update` changes it.
 */
export class SnapshotStore<T extends object> extends Subscribable {
  private snapshot: T;

  constructor(initial: T) {
    super();
    this.snapshot = initial;
  }

  readonly getSnapshot = (): T => this.snapshot;

  /** Replaces the fields of `patch` that differ; tells the listeners only when something did. */
  protected update(patch: Partial<T>): void {
    const current = this.snapshot as Record<string, unknown>;
    const changed = Object.entries(patch).some(([key, value]) => !Object.is(current[key], value));
    if (!changed) return;
    this.snapshot = { ...this.snapshot, ...patch };
    this.notify();
  }
}
