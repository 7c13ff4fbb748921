/**
 * inert keeps Tab, the pointer and assistive technology out of the recorded page, but Chromium
 * still lets a script focus an element inside the frame, and a key pressed then would reach it
 * (Enter on a recorded link loads the live site in the player). Focus that lands in the frame
 * is sent back to the player itself (focusable by script only, and Enter there does nothing).
 * Returns the undo.
 */
export function guardFocus(frame: HTMLIFrameElement, fallback: () => HTMLElement | null | undefined): () => void {
  let timer: number | undefined;
  const sendBack = () => {
    if (document.activeElement !== frame) return;
    const target = fallback();
    if (target) target.focus();
    else frame.blur();
  };
  // Once the focus change is over: moved back while it is under way, it stays in the frame.
  const later = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(sendBack, 0);
  };
  window.addEventListener('blur', later);
  frame.addEventListener('focus', later);
  return () => {
    window.clearTimeout(timer);
    window.removeEventListener('blur', later);
    frame.removeEventListener('focus', later);
  };
}
