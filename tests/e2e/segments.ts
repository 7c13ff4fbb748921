import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** On the sessions page: unfolds the filters (folded behind "Filters (n)" at every width) if they are not yet. */
export async function openFilters(app: Page): Promise<void> {
  const button = app.getByRole('button', { name: /^Filters \(\d+\)$/ });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await app.getByRole('group', { name: 'Filters' }).waitFor();
}

/**
 * Ticks (or, `checked` false, unticks) one of the filter checkboxes. The box shows the URL's state, which follows the
 * router's navigation: on a loaded machine it turns checked a moment after the click, so the
 * click is waited for rather than Playwright's check(), which reads the box at once.
 */
export async function checkFilter(app: Page, name: string, checked = true): Promise<void> {
  const box = app.getByRole('checkbox', { name });
  if ((await box.isChecked()) !== checked) await box.click();
  await expect.poll(() => box.isChecked()).toBe(checked);
}

/** On the sessions page: saves its filters as the segment `name` (picked once saved), then clears the filters. Returns the segment picker. */
export async function saveSegmentAndClear(app: Page, name: string): Promise<Locator> {
  await openFilters(app);
  await app.getByRole('button', { name: 'Save filters as…' }).click();
  await app.getByLabel('Segment name').fill(name);
  await app.getByRole('button', { name: 'Save', exact: true }).click();
  const picker = app.locator('#segment-pick');
  await expect.poll(() => picker.inputValue()).not.toBe('');
  await app.getByRole('button', { name: 'Clear filters' }).click();
  return picker;
}
