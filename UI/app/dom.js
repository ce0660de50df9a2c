// The DOM helpers every screen builds with: elements, the buttons that carry a data-action (docs/UI-DEVELOPERS.md,
// "Driving it by meaning"), forms of labelled fields and the boxes of study text that scroll.

/// `tag` with `properties` set (`dataset`, `role` and `ariaLabel` as attributes) and `children` appended.
export function element(tag, properties = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(properties)) {
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'role') node.setAttribute('role', value);
    else if (key === 'ariaLabel') node.setAttribute('aria-label', value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
}

/// A button that performs `action` (its data-action), showing `text`.
export function actionButton(action, text, onClick) {
  const button = element('button', { type: 'button', textContent: text });
  button.dataset.action = action;
  button.addEventListener('click', onClick);
  return button;
}

/// Marks `button` the one pressed among its siblings (a choice in a group: answers, sharing, relationships).
export function pressOnly(button) {
  for (const b of button.parentElement?.children ?? []) b.setAttribute('aria-pressed', String(b === button));
}

/// A form of labelled fields, never submitted (its buttons send): each field `{label, field, ...input properties}`
/// is a <label> and an <input data-field>, in order. Returns the form and its inputs.
export function fieldForm(className, fields) {
  const form = element('form', { className, autocomplete: 'off' });
  form.addEventListener('submit', (event) => event.preventDefault());
  const inputs = fields.map(({ label, field, ...properties }) => {
    const input = element('input', properties);
    input.dataset.field = field;
    form.append(element('label', { htmlFor: properties.id, textContent: label ?? '' }), input);
    return input;
  });
  return { form, inputs };
}

/// A box of study text that scrolls by itself (the review document, a learn-more text): focusable, so the keyboard
/// scrolls it too, and a named region for a screen reader (its name: the step's or the text's title, the agent's).
export function scrollable(className, name, ...children) {
  const box = element('div', { className, tabIndex: 0, role: 'region' }, children);
  if (name) box.setAttribute('aria-label', name);
  return box;
}
