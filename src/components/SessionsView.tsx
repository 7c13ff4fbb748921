import { useState } from 'react';

// The sessions list as cards (the spec's, the default) or as a dense list of one line a session;
// the choice is kept on this device.

export type SessionsView = 'cards' | 'list';

const KEY = 'tapedeck.sessionsView';

function storedView(): SessionsView {
  try {
    return localStorage.getItem(KEY) === 'list' ? 'list' : 'cards';
  } catch {
    return 'cards'; // storage blocked: cards, as the spec shows them
  }
}

export function useSessionsView(): [SessionsView, (view: SessionsView) => void] {
  const [view, setView] = useState(storedView);
  const choose = (next: SessionsView) => {
    setView(next);
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // not kept: the choice still holds on this page
    }
  };
  return [view, choose];
}

export function SessionsViewToggle({ view, onView }: { view: SessionsView; onView: (view: SessionsView) => void }) {
  return (
    <div className="view-toggle" role="group" aria-label="Show sessions as">
      <button type="button" className="button button-secondary button-small" aria-pressed={view === 'cards'} onClick={() => onView('cards')}>
        Card view
      </button>
      <button type="button" className="button button-secondary button-small" aria-pressed={view === 'list'} onClick={() => onView('list')}>
        List view
      </button>
    </div>
  );
}
