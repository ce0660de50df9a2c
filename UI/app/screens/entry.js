// The steps that ask for one typed entry, on the on-screen keyboard: the passcode (digits) and a withdrawal's
// reason (letters, optional).
import { actionButton, element } from '../dom.js';
import { keyboard } from '../keyboard.js';
import { call, perform } from '../requests.js';
import { texts } from '../session.js';
import { afterShown, label } from '../step.js';

export function passcode(body, view, reply, actions) {
  const p = view.passcode;
  body.append(element('p', { className: 'summary', textContent: p.text, id: 'passcode-text' }));
  const field = element('input', { type: 'password', maxLength: 8, id: 'passcode', className: 'passcode' });
  // The view has no label of its own for the field: the text that asks for the passcode names it.
  field.setAttribute('aria-labelledby', 'passcode-text');
  field.dataset.field = 'passcode';
  const send = actionButton('setPasscode', label(view, 'setPasscode'), () =>
    perform(() => call('setPasscode', { passcode: field.value })));
  body.append(field, keyboard({ layout: 'digits', texts: texts(), fields: [field] }));
  actions.primary(send);
  afterShown(() => field.focus());
}

export function withdrawal(body, view, reply, actions) {
  const w = view.withdrawal;
  body.append(element('p', { className: 'summary', textContent: w.text }));
  const reason = element('input', { type: 'text', maxLength: 1000, id: 'reason' });
  reason.dataset.field = 'reason';
  const send = actionButton('confirmWithdrawal', label(view, 'confirmWithdrawal'), () => {
    const text = reason.value.trim();
    perform(() => call('confirmWithdrawal', text ? { reason: text } : {}));
  });
  body.append(element('label', { htmlFor: 'reason', textContent: w.reasonLabel }), reason,
    keyboard({ texts: texts(), fields: [reason] }));
  actions.primary(send);
}
