import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// jsdom may lack structuredClone, which fake-indexeddb needs.
if (typeof globalThis.structuredClone !== 'function') {
  globalThis.structuredClone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
}

// jsdom has <dialog> but not its modal methods: open and close it as browsers do (the inert
// background and focus containment are the browser's, checked in the e2e tests).
if (typeof HTMLDialogElement !== 'undefined' && typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
    this.dataset.modal = 'true';
    this.querySelector<HTMLElement>('button:not([disabled]), [href], input, select, textarea')?.focus();
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    delete this.dataset.modal;
    this.dispatchEvent(new Event('close'));
  };
}

// findBy…/waitFor wait for a condition: on a loaded machine (CI beside other work) a screen may
// take more than testing-library's default 1 s to get there.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no matchMedia; uPlot (the insights charts) asks it for the pixel ratio when its
// module loads, which any test importing the route tree does. Nothing ever matches here.
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
