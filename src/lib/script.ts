import { fillLoader } from '../../common/loader-script.js';

// Script download and copy: the static loader with this campaign's id and base URL,
// minified in the browser by terser (a lazy chunk, loaded only here), or unminified when that fails.

export const SCRIPT_NOT_LOADED = 'Script content is not loaded yet. Please try again in a moment.';
export const COPY_FAILED = 'Failed to copy script. Please try downloading it instead.';
export const COPIED_MS = 2500;

export type Minifier = (code: string) => Promise<string | undefined>;

const terserMinify: Minifier = async (code) => {
  const { minify } = await import('terser');
  const result = await minify(code, { compress: true, mangle: true });
  return result.code;
};

/** The campaign's script; the unminified text when minifying throws or yields nothing. */
export async function buildCampaignScript(source: string | undefined, campaignId: string, baseUrl: string, minifier: Minifier = terserMinify): Promise<string> {
  if (!source) throw new Error(SCRIPT_NOT_LOADED);
  const filled = fillLoader(source, campaignId, baseUrl);
  try {
    return (await minifier(filled)) || filled;
  } catch (error) {
    console.warn('Minifying the script failed; using the unminified text', error);
    return filled;
  }
}

export const scriptFileName = (campaignId: string) => `magicFormat-${campaignId}.js`;

/**
 * The campaign's script as an inline element, ready to paste into a page's HTML. A `</script`
 * inside the code (none today; a future loader might) is escaped so it cannot end the element early.
 */
export const inlineScriptElement = (code: string) => `<script>\n${code.trim().replace(/<\/(script)/gi, '<\\/$1')}\n</script>`;

/** The one-line tag for the hosted loader. */
export const scriptTag = (origin: string, campaignId: string) => `<script async src="${origin}/t/${campaignId}.js"></script>`;

export function downloadText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/javascript' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    throw new Error(COPY_FAILED);
  }
}
