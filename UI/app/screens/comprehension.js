// The comprehension check: a question and its choices (each choice answers at once), or, after a wrong answer,
// the agent's message, the explanation and the section again; the navigation's next asks again or goes on.
import { loadAsset } from '../assets.js';
import { actionButton, element } from '../dom.js';
import { renderStudyHTML } from '../html.js';
import { call, perform } from '../requests.js';

export function comprehension(body, view) {
  const c = view.comprehension;
  body.append(element('p', { className: 'progress', textContent: c.progress }));
  body.append(element('h2', { className: 'comprehension-question', textContent: c.question }));
  if (c.phase === 'question') {
    body.append(element('p', { className: 'summary', textContent: c.text }));
    const group = element('div', { className: 'choices', role: 'group', ariaLabel: c.question });
    c.choices.forEach((text, index) => {
      const button = actionButton('comprehensionAnswer', text, () =>
        perform(() => call('comprehensionAnswer', { question: c.index, choice: index })));
      button.dataset.choice = String(index);
      button.classList.add('choice');
      group.append(button);
    });
    body.append(group);
    return;
  }
  // The explanation beside the section it comes from (one above the other in portrait), so both and the way on
  // fit a 4:3 kiosk screen.
  // Focusable, so that a long explanation that scrolls can be scrolled by keyboard too.
  const why = element('div', { className: 'comprehension-why', tabIndex: 0, role: 'region', ariaLabel: c.explanationHeading ?? c.question });
  why.append(element('p', { className: 'notice', role: 'status', textContent: c.text }));
  if (c.chosen !== undefined && c.choices[c.chosen] !== undefined) {
    why.append(element('p', { className: 'chosen', dataset: { chosen: String(c.chosen) }, textContent: c.choices[c.chosen] }));
  }
  if (c.explanation) {
    why.append(element('h3', { textContent: c.explanationHeading ?? '' }));
    why.append(element('p', { className: 'explanation', textContent: c.explanation }));
  }
  const help = element('div', { className: 'comprehension-help' }, [why]);
  if (c.sectionHTML) {
    const section = element('div', { className: 'document comprehension-section', tabIndex: 0, role: 'region', ariaLabel: c.sectionTitle ?? c.sectionHeading ?? '' });
    if (c.sectionTitle) section.append(element('h3', { textContent: c.sectionTitle }));
    section.append(renderStudyHTML(c.sectionHTML, loadAsset));
    help.append(element('div', { className: 'comprehension-source' }, [element('h3', { textContent: c.sectionHeading ?? '' }), section]));
  }
  body.append(help);
}
