import { type RefObject, useEffect } from 'react';

/**
 * Moves the focus to the first field (in `order`) that has a message whenever the messages change, so
 * a keyboard or screen-reader user lands where the problem is.
 */
export function useFocusFirstError(
  formRef: RefObject<HTMLFormElement | null>,
  errors: Readonly<Record<string, string | undefined>>,
  order: readonly string[],
): void {
  useEffect(() => {
    const first = order.find((field) => errors[field]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }, [formRef, errors, order]);
}
