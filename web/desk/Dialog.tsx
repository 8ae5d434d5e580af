// A modal dialog (the browser's own <dialog>: focus moves into it and stays there, Esc closes it,
// the page behind is inert), labelled by its heading; the focus goes back where it came from.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

let opened = 0;

export function Dialog({
  title,
  closeLabel,
  onClose,
  children,
  wide,
}: {
  title: string;
  /** the close button's name; without it the dialog has none (and Esc does nothing) */
  closeLabel?: string;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useRef(`dialog-${++opened}`).current;
  useEffect(() => {
    const from = document.activeElement as HTMLElement | null;
    const dialog = ref.current!;
    if (!dialog.open) dialog.showModal();
    const cancel = (event: Event) => {
      event.preventDefault();
      if (closeLabel) onClose();
    };
    dialog.addEventListener('cancel', cancel);
    return () => {
      dialog.removeEventListener('cancel', cancel);
      if (dialog.open) dialog.close();
      if (from?.isConnected) from.focus();
    };
  }, []);
  return (
    <dialog ref={ref} class={wide ? 'dialog wide' : 'dialog'} aria-labelledby={`${id}-title`}>
      <div class="dialog-head">
        <h2 id={`${id}-title`} tabIndex={-1}>
          {title}
        </h2>
        {closeLabel && (
          <button type="button" class="close" onClick={onClose} aria-label={closeLabel}>
            <span aria-hidden="true">×</span>
          </button>
        )}
      </div>
      {children}
    </dialog>
  );
}
