import { createContext, useContext, useLayoutEffect, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { type BreadcrumbItem, BreadcrumbStore } from './breadcrumb-store';

export const BreadcrumbContext = createContext<BreadcrumbStore | null>(null);

/**
 * Supplies the page's breadcrumbs while it is mounted. Pass a stable array (a module constant or a memo):
 * a new array each render would set them again each time.
 */
export function useBreadcrumbs(items: readonly BreadcrumbItem[]): void {
  const store = useContext(BreadcrumbContext);
  // A layout effect: the navbar shows the crumbs in the same paint as the page, never a frame later.
  useLayoutEffect(() => {
    if (!store) return;
    store.set(items);
    return () => store.clear(items);
  }, [store, items]);
}

/** The current page's breadcrumbs, for the navbar (shown at medium width and wider). */
export function Breadcrumbs({ className = '' }: { className?: string }) {
  const store = useContext(BreadcrumbContext) ?? fallbackStore;
  const items = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  if (items.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className={`breadcrumbs text-sm ${className}`}>
      <ul>
        {items.map((item, index) => {
          const last = index === items.length - 1;
          if ('content' in item) return <li key={item.key}>{item.content}</li>;
          return (
            <li key={`${item.label}-${item.to ?? ''}`}>
              {item.to && !last ? (
                <Link to={item.to}>{item.label}</Link>
              ) : (
                <span aria-current={last ? 'page' : undefined}>{item.label}</span>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

const fallbackStore = new BreadcrumbStore();
