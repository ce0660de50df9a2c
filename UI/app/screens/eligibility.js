// The eligibility questions: each answered yes or no (taps can be corrected), then sent together (labels.answer).
import { actionButton, element, pressOnly } from '../dom.js';
import { call, perform } from '../requests.js';
import { label } from '../step.js';

export function eligibility(body, view, reply, actions) {
  const e = view.eligibility;
  if (e.heading) body.append(element('h2', { textContent: e.heading }));
  if (e.message) body.append(element('p', { textContent: e.message }));
  const chosen = [...e.answers];
  const list = element('ol', { className: 'questions' });
  const send = actionButton('answer', label(view, 'answer'), () =>
    perform(() => call('answer', { answers: chosen })));
  const canSend = () => { send.disabled = chosen.some((a) => a === null || a === undefined); };
  e.questions.forEach((question, index) => {
    const item = element('li', { className: 'question' });
    item.append(element('p', { textContent: question }));
    const answers = element('div', { className: 'answers', role: 'group' });
    for (const [value, key] of [[true, 'yes'], [false, 'no']]) {
      const button = actionButton('answer', label(view, `answer.${key}`, key === 'yes' ? '✓' : '✗'), () => {
        chosen[index] = value;
        pressOnly(button);
        canSend();
      });
      button.dataset.question = String(index);
      button.dataset.answer = key;
      button.setAttribute('aria-pressed', String(chosen[index] === value));
      answers.append(button);
    }
    item.append(answers);
    list.append(item);
  });
  body.append(list);
  if (view.actions.includes('answer')) {
    canSend();
    // Once eligible, the answers can still be changed and sent again, but the way on is Next: only it stands out.
    actions.add('primary', send, { emphasis: e.status !== 'eligible' || !view.actions.includes('next') });
  }
}
