import { useEffect, useRef, useState } from 'react';
import { buildCampaignScript, copyText, COPIED_MS, downloadText, scriptFileName } from '../lib/script.js';

interface ScriptActionsProps {
  campaignId: string;
  /** The static loader's text, undefined until it has loaded. */
  source: string | undefined;
  onError: (message: string | null) => void;
}

/** Download and Copy Script for one campaign; 'Copied!' shows for 2.5 s after a copy. */
export function ScriptActions({ campaignId, source, onError }: ScriptActionsProps) {
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const build = () => buildCampaignScript(source, campaignId, window.location.origin);

  const onDownload = async () => {
    onError(null);
    setBusy(true);
    try {
      downloadText(await build(), scriptFileName(campaignId));
    } catch (error) {
      onError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  const onCopy = async () => {
    onError(null);
    setBusy(true);
    try {
      await copyText(await build());
      setCopied(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
    } catch (error) {
      onError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="button button-secondary button-small" onClick={onDownload} disabled={busy}>
        Download
      </button>
      <button type="button" className="button button-secondary button-small" onClick={onCopy} disabled={busy} aria-live="polite">
        {copied ? 'Copied!' : 'Copy Script'}
      </button>
    </>
  );
}
