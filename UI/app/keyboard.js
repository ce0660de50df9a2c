// An on-screen keyboard for kiosks without one: letters for names, digits for passcodes, and for a record number
// (a lowercase UUID) its hex digits and hyphen. Each key is a real <button data-action="key" data-key="…">; it types
// into the field last focused (never the OS keyboard: the fields carry inputmode="none"). The special keys' words
// are the agent's (study.get's texts.keys).
const LETTERS = [
  ['q', 'w', 'e', 'r', 't', 'z', 'u', 'i', 'o', 'p', 'ü'],
  ['a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'ö', 'ä'],
  ['y', 'x', 'c', 'v', 'b', 'n', 'm', 'é', 'è', 'ç', 'ß'],
  ['-', '\'', 'à', 'â', 'ê', 'ë', 'ï', 'ô', 'ñ', 'å', 'ø'],
];
const DIGITS = [['1', '2', '3'], ['4', '5', '6'], ['7', '8', '9'], ['0']];
const RECORD = [['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'], ['a', 'b', 'c', 'd', 'e', 'f', '-']];
const LAYOUTS = { letters: LETTERS, digits: DIGITS, record: RECORD };

export function keyboard({ layout = 'letters', texts, fields }) {
  // Only names have capitals; digits and record numbers are typed as they are.
  const digits = layout !== 'letters';
  let target = fields[0];
  let shifted = !digits;
  for (const field of fields) {
    field.setAttribute('inputmode', 'none');
    field.setAttribute('autocomplete', 'off');
    field.setAttribute('spellcheck', 'false');
    field.addEventListener('focus', () => { target = field; });
  }
  const board = document.createElement('div');
  board.className = `keyboard ${layout}`;
  const keys = [];
  for (const row of LAYOUTS[layout]) {
    const line = document.createElement('div');
    line.className = 'keyrow';
    for (const key of row) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.action = 'key';
      button.dataset.key = key;
      button.textContent = key;
      button.addEventListener('click', () => type(key));
      keys.push(button);
      line.append(button);
    }
    board.append(line);
  }
  const controls = document.createElement('div');
  controls.className = 'keyrow';
  const special = (action, label, handler) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.action = 'key';
    button.dataset.key = action;
    button.className = `key-${action}`;
    button.textContent = label;
    button.addEventListener('click', handler);
    controls.append(button);
    return button;
  };
  if (!digits) {
    special('shift', texts.keys.shift, () => { shifted = !shifted; paint(); });
    special('space', texts.keys.space, () => type(' '));
  }
  special('backspace', `⌫ ${texts.keys.erase}`, () => {
    target.value = target.value.slice(0, -1);
    target.dispatchEvent(new Event('input'));
    updateShift();
  });
  board.append(controls);

  function type(key) {
    const character = shifted ? key.toUpperCase() : key;
    const max = Number(target.getAttribute('maxlength') || 200);
    if (target.value.length >= max) return;
    target.value += character;
    target.dispatchEvent(new Event('input'));
    if (!digits) { shifted = false; updateShift(); }
  }
  // A capital at the start of a name and after a space or hyphen.
  function updateShift() {
    if (digits) return;
    const last = target.value.slice(-1);
    shifted = target.value === '' || last === ' ' || last === '-';
    paint();
  }
  function paint() {
    for (const button of keys) button.textContent = shifted ? button.dataset.key.toUpperCase() : button.dataset.key;
  }
  for (const field of fields) field.addEventListener('focus', updateShift);
  paint();
  return board;
}
