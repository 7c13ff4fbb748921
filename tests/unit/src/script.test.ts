import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildCampaignScript, inlineScriptElement, SCRIPT_NOT_LOADED, scriptFileName, scriptTag } from '../../../src/lib/script.js';

// The real loader the server serves as /static/magicFormat.js.
const loader = fs.readFileSync(path.resolve(process.cwd(), 'tracker/loader.js'), 'utf8');

describe('campaign script builder', () => {
  it('fills in the campaign id and base URL, then minifies with terser', async () => {
    const script = await buildCampaignScript(loader, 'camp_123', 'https://rec.example.com/');
    expect(script).toContain('"camp_123"');
    expect(script).toContain('"https://rec.example.com"');
    expect(script).not.toContain("campaignId = ''");
    expect(script.length).toBeLessThan(loader.length);
    expect(script).not.toContain('Tapedeck loader (magicFormat.js)');
    // Still runs: defines the global with our values.
    const win: Record<string, unknown> = { addEventListener() {} };
    new Function('window', 'navigator', 'document', script)(win, {}, { readyState: 'loading', createElement: () => ({}), head: { appendChild() {} } });
    // ...and the page's API as queueing stubs until the recorder loads (tracker/src/page-api.ts).
    expect(win.tapedeck).toMatchObject({ campaignId: 'camp_123', baseUrl: 'https://rec.example.com', q: [] });
    (win.tapedeck as Record<string, (...args: unknown[]) => void>).identify('customer-1');
    expect((win.tapedeck as { q: unknown[] }).q).toEqual([['identify', 'customer-1']]);
  });

  it('falls back to the unminified text when minifying fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const script = await buildCampaignScript(loader, 'camp_9', 'http://localhost:3000', async () => {
      throw new Error('terser failed to load');
    });
    expect(script).toContain('var campaignId = "camp_9";');
    expect(script).toContain('var baseUrl = "http://localhost:3000";');
    expect(script).toContain('Tapedeck loader (magicFormat.js)');
    warn.mockRestore();
  });

  it('refuses when the loader is not loaded yet', async () => {
    await expect(buildCampaignScript(undefined, 'c', 'http://x')).rejects.toThrow(SCRIPT_NOT_LOADED);
  });

  it('names the file and builds the one-line tag', () => {
    expect(scriptFileName('c1')).toBe('magicFormat-c1.js');
    expect(scriptTag('https://app.example.com', 'c1')).toBe('<script async src="https://app.example.com/t/c1.js"></script>');
  });

  it('wraps the script in one <script> element that HTML parses back to the same code', async () => {
    const code = await buildCampaignScript(loader, 'camp_7', 'https://rec.example.com');
    const html = inlineScriptElement(code);
    expect(html.startsWith('<script>\n')).toBe(true);
    expect(html.endsWith('\n</script>')).toBe(true);
    const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}<p id="after">after</p></body>`, 'text/html');
    const scripts = doc.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0].textContent!.trim()).toBe(code.trim());
    // Nothing of the script shows as page text.
    const visible = doc.body.cloneNode(true) as HTMLElement;
    visible.querySelectorAll('script').forEach((script) => script.remove());
    expect(visible.textContent!.trim()).toBe('after');
  });

  it('keeps a "</script" inside the code from closing the element early', () => {
    const code = 'var note = "</script><b>x</b>"; window.done = note.length;';
    const doc = new DOMParser().parseFromString(inlineScriptElement(code), 'text/html');
    expect(doc.querySelectorAll('script')).toHaveLength(1);
    expect(doc.querySelector('b')).toBeNull();
    const win: Record<string, unknown> = {};
    new Function('window', doc.querySelector('script')!.textContent!)(win);
    expect(win.done).toBe('</script><b>x</b>'.length);
  });
});
