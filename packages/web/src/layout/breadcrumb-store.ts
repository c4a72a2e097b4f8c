import { Subscribable } from '@planwright/sdk';
import type { ReactNode } from 'react';

/**
 * One breadcrumb (spec 000 §2 "Signed-in layout"): a label with a link, plain text, or custom content.
 */
export type BreadcrumbItem = { label: string; to?: string } | { key: string; content: ReactNode };

const NONE: readonly BreadcrumbItem[] = Object.freeze([]);

/**
 * The breadcrumbs the current page supplies, for the signed-in navbar to show. A page sets its items while
 * it is mounted; `clear` only removes the items it is given, so the next page's items are never wiped by
 * the previous page leaving after it arrived.
 */
export class BreadcrumbStore extends Subscribable {
  private items: readonly BreadcrumbItem[] = NONE;

  readonly getSnapshot = (): readonly BreadcrumbItem[] => this.items;

  set(items: readonly BreadcrumbItem[]): void {
    if (items === this.items) return;
    this.items = items;
    this.notify();
  }

  clear(items: readonly BreadcrumbItem[]): void {
    if (items !== this.items) return;
    this.items = NONE;
    this.notify();
  }
}
