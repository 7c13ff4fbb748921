import { forwardRef } from 'react';
import { SHORTCUTS } from './shortcuts.js';

/** The `?` overlay: a native modal dialog listing the replay page's keyboard shortcuts. */
export const ShortcutsHelp = forwardRef<HTMLDialogElement>(function ShortcutsHelp(_, ref) {
  return (
    <dialog ref={ref} className="shortcuts-help" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <dl className="shortcuts-list">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button type="submit" className="button button-primary">
          Close
        </button>
      </form>
    </dialog>
  );
});
