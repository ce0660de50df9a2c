// What the participant reads before deciding: the key information the consent begins with, the visual consent's
// scenes (their image, summary and learn-more text), learn-more texts elsewhere (sharing), and, for a re-consent,
// what changed in the study since.
import { loadAsset } from '../assets.js';
import { actionButton, element, scrollable } from '../dom.js';
import { renderStudyHTML } from '../html.js';
import { texts } from '../session.js';

/// The key information (step keyInformation): the agent's sentence on why it comes first, then the study's page
/// whole, in a box that takes the height left and scrolls, as the review document does. The view's title is the
/// screen's heading and names the box.
export function keyInformation(body, view) {
  const k = view.keyInformation;
  if (k.text) body.append(element('p', { className: 'summary', textContent: k.text }));
  body.append(scrollable('document key-information', view.title, renderStudyHTML(k.html, loadAsset)));
}

export function scene(body, view) {
  const s = view.scene;
  body.append(element('p', { className: 'progress', textContent: `${s.index + 1} / ${s.count}` }));
  const layout = element('div', { className: 'scene' });
  if (s.image) {
    const image = element('img', { className: 'scene-image', alt: '' });
    image.dataset.asset = s.image;
    loadAsset(s.image).then((url) => { if (url) image.src = url; else image.remove(); });
    layout.append(image);
  }
  const words = element('div', { className: 'scene-text' });
  if (s.title) words.append(element('h2', { textContent: s.title }));
  if (s.summary) words.append(element('p', { className: 'summary', textContent: s.summary }));
  if (s.learnMoreHTML) words.append(learnMore(s.learnMoreTitle, s.learnMoreHTML));
  layout.append(words);
  body.append(layout);
}

export function changes(body, view) {
  const c = view.changes;
  body.append(element('p', { className: 'summary', textContent: c.text }));
  for (const [key, titles] of [['added', c.added], ['edited', c.edited], ['removed', c.removed]]) {
    if (!titles?.length) continue;
    const list = element('ul', { className: `changes changes-${key}` });
    for (const title of titles) list.append(element('li', { textContent: title }));
    body.append(list);
  }
}

/// A learn-more text: its button opens it over the screen's content, Close (the agent's texts.close) shuts it.
export function learnMore(title, html) {
  const t = texts();
  const toggle = (shown) => {
    panel.hidden = !shown;
    open.setAttribute('aria-expanded', String(shown));
  };
  const open = actionButton('learnMore', title || t.learnMore, () => toggle(panel.hidden));
  open.setAttribute('aria-expanded', 'false');
  const close = actionButton('closeLearnMore', t.close, () => { toggle(false); open.focus(); });
  const panel = scrollable('learn-more', title || t.learnMore, renderStudyHTML(html, loadAsset), close);
  panel.hidden = true;
  return element('div', {}, [open, panel]);
}
