// Kiosk ergonomics: no context menu, no drag of images or text, no pinch or double-tap zoom (typing in a field
// keeps its own selection).
export function blockKioskGestures() {
  for (const type of ['contextmenu', 'dragstart', 'selectstart', 'gesturestart']) {
    document.addEventListener(type, (event) => {
      if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
    });
  }
  document.addEventListener('touchmove', (event) => { if (event.touches.length > 1) event.preventDefault(); }, { passive: false });
}
