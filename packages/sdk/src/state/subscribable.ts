/** A listener takes no arguments: it reads what changed through `getSnapshot()`. */
export type Listener = () => void;

/**
 * The `subscribe(listener) → unsubscribe` half of every stateful SDK object, shaped for React's
 * `useSyncExternalStore` and for Ink.
 */
export class Subscribable {
  private readonly listeners = new Set<Listener>();

  /**
   * Calls `listener` after every change; returns the function that stops it. An arrow property, so
   * `useSyncExternalStore(store.subscribe, store.getSnapshot)` works without binding.
   */
  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    this.onSubscribe();
    return () => {
      if (this.listeners.delete(listener)) this.onUnsubscribe();
    };
  };

  /** How many are listening. */
  protected get listenerCount(): number {
    return this.listeners.size;
  }

  /** Forgets every listener (a disposed object tells nobody anything again). */
  protected unsubscribeAll(): void {
    this.listeners.clear();
  }

  /** Runs after each new listener: a store that watches something only while watched starts here. */
  protected onSubscribe(): void {}

  /** Runs after each listener leaves. */
  protected onUnsubscribe(): void {}

  /** Whether anyone is listening. */
  hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  /**
   * Tells every listener. One listener that throws must not leave the others with a stale view, so all
   * are called first and the first error is rethrown afterwards.
   */
  protected notify(): void {
    let failure: { error: unknown } | undefined;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}
