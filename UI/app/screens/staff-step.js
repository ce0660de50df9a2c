// The person obtaining consent (staffCountersignature): unlock with staff id and PIN, say how the signer's identity
// was verified, countersign. Every word is the agent's (view.staff, view.labels).
import { actionButton, element, fieldForm, pressOnly } from '../dom.js';
import { keyboard } from '../keyboard.js';
import { call, perform } from '../requests.js';
import { state, texts } from '../session.js';
import { afterShown, label, showStep } from '../step.js';
import { signaturePage } from './signing.js';

export function staffStep(body, view, reply, actions) {
  const s = view.staff;
  body.append(element('p', { className: 'summary', textContent: s.text }));
  if (s.page === 'unlock') return unlock(body, view, actions);
  if (s.page === 'attest') return attest(body, view, actions);
  // The countersignature; "Change identity check" goes back to the choice of method.
  signaturePage(body, actions, view, 'personObtainingConsent');
  if (view.actions.includes('attestIdentity')) {
    const change = actionButton('attestIdentity', label(view, 'attestIdentity'), () => {
      state.signature = null;
      showStep('staff', { ...view, staff: { ...s, page: 'attest' } }, state.current, staffStep);
    });
    change.dataset.change = 'identity';
    body.querySelector('.row')?.prepend(change);
  }
}

function unlock(body, view, actions) {
  const s = view.staff;
  const { form, inputs: [id, pin] } = fieldForm('names staff-unlock', [
    { label: s.staffIdLabel, field: 'staffId', type: 'text', maxLength: 64, id: 'staff-id' },
    { label: s.pinLabel, field: 'pin', type: 'password', maxLength: 12, id: 'staff-pin', className: 'passcode' },
  ]);
  // Letters for the id, digits for the PIN: the keyboard of the field being typed in.
  const letters = keyboard({ texts: texts(), fields: [id], names: false });
  const digits = keyboard({ layout: 'digits', texts: texts(), fields: [pin] });
  const showKeyboard = (field) => { letters.hidden = field !== id; digits.hidden = field !== pin; };
  id.addEventListener('focus', () => showKeyboard(id));
  pin.addEventListener('focus', () => showKeyboard(pin));
  const send = actionButton('staffUnlock', label(view, 'staffUnlock'), () => {
    const params = { staffId: id.value.trim(), pin: pin.value };
    pin.value = '';
    perform(() => call('staffUnlock', params));
  });
  body.append(form, letters, digits);
  actions.primary(send);
  showKeyboard(id);
  afterShown(() => id.focus());
}

function attest(body, view, actions) {
  const s = view.staff;
  let method = s.method ?? null;
  const group = element('div', { className: 'choices identity', role: 'group' });
  const note = element('input', { type: 'text', maxLength: 200, id: 'staff-note' });
  note.dataset.field = 'note';
  const send = actionButton('attestIdentity', s.attestLabel ?? label(view, 'attestIdentity'), () => {
    const params = { method };
    if (note.value.trim()) params.note = note.value.trim();
    perform(() => call('attestIdentity', params));
  });
  const update = () => { send.disabled = method === null; };
  for (const choice of s.methods ?? []) {
    const button = actionButton('attestIdentity', choice.text, () => {
      method = choice.method;
      pressOnly(button);
      update();
    });
    button.dataset.identity = choice.method;
    button.classList.add('choice');
    button.setAttribute('aria-pressed', String(method === choice.method));
    group.append(button);
  }
  update();
  body.append(group, element('label', { htmlFor: 'staff-note', textContent: s.noteLabel ?? '' }), note,
    keyboard({ texts: texts(), fields: [note], names: false }));
  actions.primary(send);
}
