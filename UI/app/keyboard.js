// An on-screen keyboard for kiosks without one: letters for names, digits for passcodes, and for a record number
// (a lowercase UUID) its hex digits and hyphen, for a resume code its letters and digits. Each key is a real <button data-action="key" data-key="…">; it types
// into the field last focused (never the OS keyboard: the fields carry inputmode="none"). The letters are the
// agent's, in the flow's language (study.get's texts.keys.letters: QWERTY for English, QWERTZ for German, AZERTY
// for French, each with its accented letters), as are the special keys' words (texts.keys), so this file holds no
// table per language; only the digits and the record number's characters, which are the same in every language.
const DIGITS = [['1', '2', '3'], ['4', '5', '6'], ['7', '8', '9'], ['0']];
const RECORD = [['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'], ['a', 'b', 'c', 'd', 'e', 'f', '-']];
// A resume code's characters (Sources/PausedFlows/ResumeCode.swift: no look-alikes), the same in every language.
const RESUME = [['A', 'C', 'D', 'E', 'F', 'H', 'J', 'K'], ['M', 'N', 'P', 'R', 'T', 'U', 'V'], ['W', 'X', 'Y', '3', '4', '7', '9']];

/// `names`: the letters start each word with a capital (a person's names); false for other text (a staff id, a
/// note), where Shift alone gives a capital.
export function keyboard({ layout = 'letters', texts, fields, names = true }) {
  // Only names have capitals; digits and record numbers are typed as they are.
  const digits = layout !== 'letters';
  const capitalizes = !digits && names;
  let target = fields[0];
  let shifted = capitalizes;
  for (const field of fields) {
    field.setAttribute('inputmode', 'none');
    field.setAttribute('autocomplete', 'off');
    field.setAttribute('spellcheck', 'false');
    field.addEventListener('focus', () => { target = field; });
  }
  const board = document.createElement('div');
  board.className = `keyboard ${layout}`;
  board.dataset.layout = digits ? layout : texts.keys.layout;
  const keys = [];
  const rows = { letters: texts.keys.letters ?? [], digits: DIGITS, record: RECORD, resume: RESUME }[layout];
  for (const row of rows) {
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
    const character = shifted ? capital(key) : key;
    const max = Number(target.getAttribute('maxlength') || 200);
    if (target.value.length >= max) return;
    target.value += character;
    target.dispatchEvent(new Event('input'));
    if (!digits) { shifted = false; updateShift(); }
  }
  // A capital at the start of a name and after a space or hyphen.
  function updateShift() {
    if (digits) return;
    if (!capitalizes) { shifted = false; paint(); return; }
    const last = target.value.slice(-1);
    shifted = target.value === '' || last === ' ' || last === '-';
    paint();
  }
  function paint() {
    for (const button of keys) button.textContent = shifted ? capital(button.dataset.key) : button.dataset.key;
  }
  // A letter without a one-letter capital (ß, whose toUpperCase is "SS") stays as it is.
  function capital(key) {
    const upper = key.toUpperCase();
    return [...upper].length === 1 ? upper : key;
  }
  for (const field of fields) field.addEventListener('focus', updateShift);
  paint();
  return board;
}
