// The optional elements: every one on the screen, each answered Yes or No (nothing chosen before the participant
// chooses; taps can be corrected), then sent together (labels.optionalAnswer), which goes on once each has an answer.
import { actionButton, element, pressOnly } from '../dom.js';
import { call, perform } from '../requests.js';
import { label } from '../step.js';
import { learnMore } from './information.js';

export function optional(body, view, reply, actions) {
  const o = view.optional;
  body.append(element('p', { className: 'summary', textContent: o.text }));
  const chosen = Object.fromEntries(o.elements.map((e) => [e.id, typeof e.answer === 'boolean' ? e.answer : null]));
  const list = element('ul', { className: 'optional-elements' });
  const send = actionButton('optionalAnswer', label(view, 'optionalAnswer'), () =>
    perform(() => call('optionalAnswer', { answers: chosen })));
  const canSend = () => { send.disabled = Object.values(chosen).some((a) => a === null); };
  for (const item of o.elements) {
    const heading = element('h2', { className: 'optional-title', textContent: item.title, id: `optional-${item.id}` });
    const entry = element('li', { className: 'optional-element' }, [heading]);
    entry.dataset.element = item.id;
    entry.append(element('p', { textContent: item.text }));
    if (item.learnMoreHTML) entry.append(learnMore(item.learnMoreTitle, item.learnMoreHTML));
    // A group named by the element's title, so a screen reader says which question each Yes and No answers.
    const answers = element('div', { className: 'answers', role: 'group' });
    answers.setAttribute('aria-labelledby', heading.id);
    for (const [value, key] of [[true, 'yes'], [false, 'no']]) {
      const button = actionButton('optionalAnswer', label(view, `optionalAnswer.${key}`, key === 'yes' ? '✓' : '✗'), () => {
        chosen[item.id] = value;
        pressOnly(button);
        canSend();
      });
      button.dataset.element = item.id;
      button.dataset.answer = key;
      button.setAttribute('aria-pressed', String(chosen[item.id] === value));
      answers.append(button);
    }
    entry.append(answers);
    list.append(entry);
  }
  body.append(list);
  canSend();
  send.dataset.confirm = 'true';
  actions.primary(send);
}
