import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab past the last control comes back to the first (and Shift+Tab the other way) instead of
 * leaving for the browser's own toolbar, as it would from a modal dialog. */
function wrapTab(event: KeyboardEvent<HTMLDialogElement>): void {
  if (event.key !== 'Tab') return;
  const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE));
  if (items.length === 0) return;
  const [head, tail] = [items[0], items[items.length - 1]];
  if (event.shiftKey ? document.activeElement === head : document.activeElement === tail) {
    event.preventDefault();
    (event.shiftKey ? tail : head).focus();
  }
}

/**
 * Whether the element's content overflows it (the details list on a phone). A scrolling region
 * must be reachable by keyboard, so the body then takes focus (and arrow keys scroll it).
 */
function useScrolls(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollHeight > element.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** While true, Escape and the backdrop do not close it (e.g. while deleting). */
  busy?: boolean;
}

/**
 * A native modal `<dialog>` opened with showModal(): the browser makes the rest of the page inert
 * (also for screen readers) and keeps focus inside, wrapping at its ends; Escape, the close button and the backdrop
 * close it, and focus goes back to where it was.
 */
export function Modal({ title, onClose, children, footer, busy = false }: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyRef = useRef<HTMLDivElement>(null);
  const bodyScrolls = useScrolls(bodyRef);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      if (dialog.open) dialog.close();
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className="modal-dialog"
      aria-labelledby={titleId}
      // Escape: the parent decides (it unmounts the modal), never the browser on its own.
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      // The dialog element itself is hit only outside its content: the backdrop.
      onMouseDown={(event) => event.target === event.currentTarget && !busy && onClose()}
      onKeyDown={wrapTab}
    >
      <div className="modal">
        <div className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose} disabled={busy}>
            ×
          </button>
        </div>
        <div
          ref={bodyRef}
          className="modal-body"
          tabIndex={bodyScrolls ? 0 : undefined}
          role={bodyScrolls ? 'region' : undefined}
          aria-labelledby={bodyScrolls ? titleId : undefined}
        >
          {children}
        </div>
        {footer && <div className="modal-footer">{footer}</div>}
      </div>
    </dialog>
  );
}
