// The name forms, typed on the on-screen keyboard: the participant's, a representative's (with their
// relationship) and a witness's.
import { actionButton, element, fieldForm, pressOnly } from '../dom.js';
import { keyboard } from '../keyboard.js';
import { call, perform } from '../requests.js';
import { texts } from '../session.js';
import { afterShown, label } from '../step.js';

/// A name form (a step builder as it is: the signature page's "Change name" shows it alone): given and family
/// name, and a representative's relationship, sent with `action`.
export function nameForm(body, view, reply, actions, action = 'setName', extra = {}, relationships = [], relationshipLabel) {
  const r = view.review;
  const { form, inputs: [given, family] } = fieldForm('names', [
    { label: r.givenNameLabel, field: 'given', type: 'text', maxLength: 100, id: 'given' },
    { label: r.familyNameLabel, field: 'family', type: 'text', maxLength: 100, id: 'family' },
  ]);
  let relationship = null;
  if (relationships.length) {
    const group = element('div', { className: 'choices relationships', role: 'group', ariaLabel: relationshipLabel ?? '' });
    if (relationshipLabel) form.append(element('p', { textContent: relationshipLabel }));
    for (const option of relationships) {
      const button = actionButton('setSignerName', option.display, () => {
        relationship = option.code;
        pressOnly(button);
      });
      button.dataset.relationship = option.code;
      button.setAttribute('aria-pressed', 'false');
      group.append(button);
    }
    form.append(group);
  }
  const send = actionButton(action, label(view, action), () => {
    const params = { given: given.value.trim(), family: family.value.trim(), ...extra };
    if (relationship) params.relationship = relationship;
    perform(() => call(action, params));
  });
  send.dataset.submit = 'true';
  body.append(form, keyboard({ texts: texts(), fields: [given, family] }));
  actions.primary(send);
  afterShown(() => given.focus());
}
