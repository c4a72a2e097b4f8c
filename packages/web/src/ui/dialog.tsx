import { type KeyboardEvent, type ReactNode, type RefObject, useId, useLayoutEffect, useRef } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements Tab moves between inside `root`, in document order. */
function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.tabIndex >= 0);
}

export interface DialogProps {
  /** The dialog's name, shown as its heading and announced with it. */
  title: string;
  /** Closes it: Escape, a click outside the box and the caller's Cancel buttons all lead here. */
  onClose: () => void;
  /** While true (a call is out) Escape and the backdrop do nothing. */
  busy?: boolean;
  /** Receives the focus when the dialog opens; else the first focusable element inside. */
  initialFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
}

/**
 * A modal dialog: mounted means open. Native `<dialog>` opened with `showModal()` (the browser makes the
 * page behind it inert), plus what the browser does not promise everywhere: focus moves in on open, Tab
 * and Shift+Tab wrap inside, Escape closes through `onClose` (so React state, not the element, decides),
 * and on close the focus goes back to whatever had it before. Labelled by its heading.
 */
export function Dialog({ title, onClose, busy = false, initialFocus, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const busyRef = useRef(busy);
  busyRef.current = busy;

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    (initialFocus?.current ?? tabbables(dialog)[0] ?? dialog).focus();
    return () => {
      if (dialog.open) dialog.close();
      // The opener may be gone (a deleted item's page): then the browser's default is fine.
      if (returnTo?.isConnected) returnTo.focus();
    };
  }, [initialFocus]);

  const requestClose = () => {
    if (!busyRef.current) onClose();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      requestClose();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = tabbables(ref.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (
      event.shiftKey &&
      (document.activeElement === first || !ref.current.contains(document.activeElement))
    ) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      onClick={(event) => {
        // A click on the dialog itself, not its box, is a click on the backdrop around the box.
        if (event.target === event.currentTarget) requestClose();
      }}
      onCancel={(event) => {
        // The browser's own close request (Escape on some platforms): React state decides instead.
        event.preventDefault();
        requestClose();
      }}
    >
      <div className="modal-box max-h-[90vh] min-w-0">
        <h2 id={titleId} className="text-lg font-bold [overflow-wrap:anywhere]">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
