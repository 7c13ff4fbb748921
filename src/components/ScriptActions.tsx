import { useEffect, useRef, useState } from 'react';
import { buildCampaignScript, copyText, COPIED_MS, downloadText, inlineScriptElement, scriptFileName, scriptTag } from '../lib/script.js';

/** Whether the last copy is under 2.5 s old; `copied()` (re)starts the 'Copied!' feedback. */
function useCopiedFeedback(): [boolean, () => void] {
  const [shown, setShown] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copied = () => {
    setShown(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setShown(false), COPIED_MS);
  };
  return [shown, copied];
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface ScriptActionsProps {
  campaignId: string;
  /** The static loader's text, undefined until it has loaded. */
  source: string | undefined;
  onError: (message: string | null) => void;
}

/**
 * Download (the .js file) and Copy Script (the same script wrapped in <script>…</script>, so it
 * works when pasted into a page's HTML) for one campaign; 'Copied!' shows for 2.5 s after a copy.
 */
export function ScriptActions({ campaignId, source, onError }: ScriptActionsProps) {
  const [copied, showCopied] = useCopiedFeedback();
  const [busy, setBusy] = useState(false);

  const build = () => buildCampaignScript(source, campaignId, window.location.origin);

  const run = (action: () => Promise<void>) => async () => {
    onError(null);
    setBusy(true);
    try {
      await action();
    } catch (error) {
      onError(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const onDownload = run(async () => downloadText(await build(), scriptFileName(campaignId)));
  const onCopy = run(async () => {
    await copyText(inlineScriptElement(await build()));
    showCopied();
  });

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

/** The hosted one-line tag, shown with its own copy button: the recommended way to install. */
export function InstallTag({ campaignId, onError }: { campaignId: string; onError: (message: string | null) => void }) {
  const [copied, showCopied] = useCopiedFeedback();
  const tag = scriptTag(window.location.origin, campaignId);
  const onCopy = async () => {
    onError(null);
    try {
      await copyText(tag);
      showCopied();
    } catch (error) {
      onError(errorText(error));
    }
  };
  return (
    <div className="install-tag">
      <p className="install-tag-hint">
        <strong>Recommended:</strong> paste this one-line tag into every page of your site; it loads in the background and always brings the latest recorder.
      </p>
      <div className="install-tag-line">
        <code>{tag}</code>
        <button type="button" className="button button-secondary button-small" onClick={() => void onCopy()} aria-live="polite">
          {copied ? 'Copied!' : 'Copy tag'}
        </button>
      </div>
    </div>
  );
}

/**
 * The dashboard row's install block: open until the campaign's first data arrives (the owner is
 * installing), then folded behind "Show install tag" (installed: it would only repeat on every card).
 */
export function InstallBlock({ campaignId, installed, onError }: { campaignId: string; installed: boolean; onError: (message: string | null) => void }) {
  if (!installed) return <InstallTag campaignId={campaignId} onError={onError} />;
  return (
    <details className="install-fold">
      <summary>Show install tag</summary>
      <InstallTag campaignId={campaignId} onError={onError} />
    </details>
  );
}
