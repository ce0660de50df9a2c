// "Print the form to take home" (copy.printBlank): the consent, not signed, for reading only, on the kiosk's
// printer; on the start screen (study.get's printBlank) and on the review document (the view's action printBlank).
// The words are the agent's: the control's label, then study.get's texts blankPrinting or blankFailed.
import { actionButton, element } from './dom.js';
import { ConnectionLost } from './rpc.js';
import { agent, texts } from './session.js';

/// The control and the line that says what became of the form; `params` are copy.printBlank's ({flow}, or
/// {study, language}).
export function takeHomeForm(labelText, params) {
  const box = element('div', { className: 'take-home' });
  const status = element('p', { className: 'blank-status', role: 'status' });
  const button = actionButton('printBlank', labelText, async () => {
    button.disabled = true;
    status.textContent = texts().blankPrinting;
    status.dataset.blank = 'printing';
    try {
      await agent.call('copy.printBlank', params());
      // One form at a time: the agent refuses another for 30 s, so the control waits as long.
      setTimeout(() => { button.disabled = false; }, 30000);
    } catch (error) {
      if (error instanceof ConnectionLost) return;
      status.textContent = texts().blankFailed;
      status.dataset.blank = 'failed';
      button.disabled = false;
    }
  });
  button.classList.add('quiet');
  box.append(button, status);
  return box;
}
