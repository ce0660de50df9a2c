// The page's frame around every screen (index.html): the header's titles, the screen's content, the action bar
// under it, and the overlay shown while the page waits (for the agent, or for a flow being saved).
import { ActionBar } from './actionbar.js';
import { showDisplayControls } from './display.js';
import { element } from './dom.js';
import { clearError } from './errors.js';
import { texts } from './session.js';

const screen = document.getElementById('screen');
const header = document.getElementById('header');
const actionBar = document.getElementById('actions');
const overlay = document.getElementById('overlay');

export function setHeader(studyTitle, stepTitle) {
  header.replaceChildren(element('span', { className: 'study-title', textContent: studyTitle }));
  if (stepTitle) header.append(element('span', { className: 'step-title', textContent: stepTitle }));
}

/// Shows a screen: its content, and its buttons in the action bar (none: the bar is hidden). The header's tools
/// are labelled in the screen's language.
export function show(body, actions = new ActionBar()) {
  clearError();
  screen.replaceChildren(body);
  screen.scrollTop = 0;
  actions.showIn(actionBar);
  actionBar.dataset.screen = body.dataset.screen ?? '';
  showDisplayControls(texts());
}

/// The buttons of the screen shown: its content's and its action bar's (not the header's tools).
export function screenButtons() { return document.querySelectorAll('#screen button, #actions button'); }

/// Whether the screen shows an open learn-more text (read aloud instead of the screen).
export function learnMoreOpen() { return screen.querySelector('.learn-more:not([hidden])') !== null; }

// No text yet (before the agent's texts came): a spinner alone, which needs no language.
export function showOverlay(text) {
  overlay.textContent = text ?? '';
  overlay.classList.toggle('spinner', !text);
  overlay.hidden = false;
}
export function hideOverlay() { overlay.hidden = true; }
