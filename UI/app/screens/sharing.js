// The sharing choice: the agent's choices (data-choice true|false), then the confirming button (data-confirm).
import { actionButton, element, pressOnly } from '../dom.js';
import { call, perform } from '../requests.js';
import { label } from '../step.js';
import { learnMore } from './information.js';

export function sharing(body, view, reply, actions) {
  const s = view.sharing;
  body.append(element('p', { className: 'summary', textContent: s.text }));
  if (s.learnMoreHTML) body.append(learnMore(s.learnMoreTitle, s.learnMoreHTML));
  let choice = s.selected;
  const group = element('div', { className: 'choices', role: 'group' });
  const confirm = actionButton('chooseSharing', label(view, 'chooseSharing'), () =>
    perform(() => call('chooseSharing', { shareWidely: choice })));
  for (const option of s.choices) {
    const button = actionButton('chooseSharing', option.text, () => {
      choice = option.shareWidely;
      pressOnly(button);
      confirm.disabled = false;
    });
    button.dataset.choice = String(option.shareWidely);
    button.classList.add('choice');
    button.setAttribute('aria-pressed', String(choice === option.shareWidely));
    group.append(button);
  }
  confirm.disabled = choice === undefined || choice === null;
  confirm.dataset.confirm = 'true';
  body.append(group);
  actions.primary(confirm);
}
