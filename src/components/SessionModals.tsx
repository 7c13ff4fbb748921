import type { ReactNode } from 'react';
import type { Session } from '../../common/api-types.js';
import { formatBytes, formatDateTime, formatDurationMs, storedIpLabel } from '../lib/format.js';
import { sessionTypeLabel } from '../api/sessions.js';
import { countryLabel } from './SessionCard.js';
import { Modal } from './Modal.js';
import { DetailsList } from './DetailsList.js';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const text = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '—' : String(value));

/** Every field of a session, closing with the button or Escape. */
export function SessionDetailsModal({ session, onClose }: { session: Session; onClose: () => void }) {
  const rows: [string, string][] = [
    ['Session ID', session.sessionId],
    ['Session Type', sessionTypeLabel(session.isBot)],
    ['Bot Reason', text(session.botReason)],
    ['IP Address', storedIpLabel(session, '—')],
    ['Country', countryLabel(session)],
    ['Language', text(session.language)],
    ['Timezone', text(session.timezone)],
    ['Hardware Concurrency', `${text(session.hardwareConcurrency)} cores`],
    ['WebDriver', yesNo(session.webdriver)],
    ['Cookies Enabled', yesNo(session.cookiesEnabled)],
    ['Has Focus', yesNo(session.hasFocus)],
    ['Fullscreen Enabled', yesNo(session.fullScreenEnabled)],
    ['User Agent', text(session.userAgent)],
    ['Browser', text(session.browser)],
    ['Operating System', text(session.os)],
    ['Device', text(session.device)],
    ['Screen', session.screenWidth && session.screenHeight ? `${session.screenWidth} × ${session.screenHeight}` : '—'],
    ['Referrer', text(session.referrer)],
    ['Entry URL', text(session.entryUrl)],
    ['Started', formatDateTime(session.startedAt)],
    ['Last Activity', formatDateTime(session.lastActivityAt)],
    ['Duration', formatDurationMs(session.durationMs)],
    ['Pages', text(session.pageCount)],
    ['Events', text(session.eventCount)],
    ['Recorded Size', formatBytes(session.byteCount ?? 0)],
  ];
  return (
    <Modal
      title="Session Details"
      onClose={onClose}
      footer={
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      }
    >
      <DetailsList rows={rows} />
    </Modal>
  );
}

/**
 * A delete confirmation: Cancel, and the danger button that reads 'Deleting...' while it works
 * (and stays off while `ready` is false, e.g. until a typed confirmation matches).
 */
export function ConfirmDeleteModal({
  title,
  confirmLabel,
  deleting,
  ready = true,
  onCancel,
  onConfirm,
  children,
}: {
  title: string;
  confirmLabel: string;
  deleting: boolean;
  ready?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      busy={deleting}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onCancel} disabled={deleting}>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={onConfirm} disabled={deleting || !ready}>
            {deleting ? 'Deleting...' : confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}

interface DeleteModalProps {
  deleting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function DeleteCampaignModal({ sessionCount, ...confirm }: DeleteModalProps & { sessionCount: number }) {
  return (
    <ConfirmDeleteModal title="Delete Campaign?" confirmLabel="Delete Campaign" {...confirm}>
      <p className="warning">This action cannot be undone. This will permanently delete:</p>
      <ul className="delete-list">
        <li>All sessions ({sessionCount})</li>
        <li>All recordings and data</li>
        <li>The campaign configuration</li>
      </ul>
    </ConfirmDeleteModal>
  );
}

/** Confirms deleting one session and its recording, e.g. for a visitor's erasure request. */
export function DeleteSessionModal({ sessionId, ...confirm }: DeleteModalProps & { sessionId: string }) {
  return (
    <ConfirmDeleteModal title="Delete Session?" confirmLabel="Delete Session" {...confirm}>
      <p className="warning">This action cannot be undone. The session and its recording are deleted permanently:</p>
      <p className="mono small break">{sessionId}</p>
    </ConfirmDeleteModal>
  );
}
