// Text size and contrast, chosen by the participant for their flow: a text-size button per size the agent offers
// (study.get's texts.display.sizes: 100 % up to 200 %, <button data-action="textSize" data-size="150">) and a
// high-contrast toggle (<button data-action="contrast" aria-pressed>). The page's zoom is off (a kiosk must not
// zoom by accident: index.html's viewport), so these are how text gets larger (WCAG 1.4.4). The choice holds
// for the flow (every screen re-reads it from the page's root) and resetDisplay() ends it, when the next participant's start
// screen shows. The words are the agent's (texts.display), so a language switch relabels them.
import { setTool } from './tools.js';

const root = document.documentElement;
const chosen = { size: 100, contrast: false };

/// Shows the controls in the header's tools, labelled in `texts`' language (nothing before the agent's texts came).
export function showDisplayControls(texts) {
  const words = texts?.display;
  if (!words?.sizes?.length) return setTool('display', null);
  const controls = document.createElement('div');
  controls.className = 'display-controls';
  const sizes = document.createElement('div');
  sizes.className = 'text-sizes';
  sizes.setAttribute('role', 'group');
  sizes.setAttribute('aria-label', words.textSize);
  words.sizes.forEach(({ percent, name }, index) => {
    const button = toolButton('textSize', name, 'A', () => choose({ size: percent }));
    button.dataset.size = String(percent);
    // The glyph grows with the size it sets, smallest first (the agent lists them so).
    button.firstChild.style.fontSize = `${0.8 + 0.5 * index / Math.max(1, words.sizes.length - 1)}em`;
    sizes.append(button);
  });
  const contrast = toolButton('contrast', words.contrast, '◐', () => choose({ contrast: !chosen.contrast }));
  controls.append(sizes, contrast);
  setTool('display', controls);
  paint();
}

/// Back to the UI's own size and colours (the flow ended: the next participant starts from them).
export function resetDisplay() {
  choose({ size: 100, contrast: false });
}

/// The size now in force, in percent, and whether high contrast is on (for a screen that must lay out by them).
export function currentDisplay() { return { ...chosen }; }

function choose(change) {
  Object.assign(chosen, change);
  // One custom property scales every rem of the page (style.css :root); the theme swaps the colour variables.
  root.style.setProperty('--text-scale', String(chosen.size / 100));
  root.dataset.textSize = String(chosen.size);
  if (chosen.contrast) root.dataset.contrast = 'high'; else delete root.dataset.contrast;
  paint();
}

function paint() {
  for (const button of document.querySelectorAll('#tools [data-action="textSize"]')) {
    button.setAttribute('aria-pressed', String(Number(button.dataset.size) === chosen.size));
  }
  document.querySelector('#tools [data-action="contrast"]')?.setAttribute('aria-pressed', String(chosen.contrast));
}

// A symbol the eye reads (aria-hidden) and the agent's words as the button's name.
function toolButton(action, name, symbol, onClick) {
  const button = document.createElement('button');
  button.type = 'button';
  button.dataset.action = action;
  button.setAttribute('aria-label', name);
  const glyph = document.createElement('span');
  glyph.setAttribute('aria-hidden', 'true');
  glyph.textContent = symbol;
  button.append(glyph);
  button.addEventListener('click', onClick);
  return button;
}
