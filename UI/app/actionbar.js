// The action bar: one row fixed under every screen, outside the content that scrolls, so that a step's primary
// action and its ways back and out are always on screen without scrolling, at every screen size, orientation and
// text size (docs/UI-DEVELOPERS.md, "Screens that fit"). A screen's builder puts its buttons in by slot:
//   back    - the way to the previous screen (Back): first, at the start;
//   exit    - the ways out of the flow (Cancel, Do Not Take Part, Disagree): quiet, before the primary action;
//   primary - what moves the step forward (Confirm Answers, Next, Agree, Sign, Save, Begin): last, at the end.
// Everything else (answers, choices, the keyboard, Clear) stays in the screen's content, beside what it acts on.
const SLOTS = ['back', 'exit', 'primary'];

export class ActionBar {
  constructor() {
    this.slots = Object.fromEntries(SLOTS.map((slot) => [slot, []]));
  }

  /// Adds `button` to `slot` (after the buttons already there); returns it. A primary action is emphasised
  /// unless `emphasis` is false (two equal ways on, as the record screen's withdraw and re-consent).
  add(slot, button, { emphasis = true } = {}) {
    if (!this.slots[slot]) throw new Error(`no action bar slot ${slot}`);
    if (slot === 'primary' && emphasis) button.classList.add('primary');
    if (slot === 'exit') button.classList.add('quiet');
    this.slots[slot].push(button);
    return button;
  }

  back(button) { return this.add('back', button); }
  exit(button) { return this.add('exit', button); }
  primary(button) { return this.add('primary', button); }

  get isEmpty() { return SLOTS.every((slot) => this.slots[slot].length === 0); }

  /// Shows these buttons in `bar` (the page's one <nav id="actions">), replacing the previous screen's.
  showIn(bar) {
    const groups = SLOTS.filter((slot) => this.slots[slot].length).map((slot) => {
      const group = document.createElement('div');
      group.className = `slot slot-${slot}`;
      group.dataset.slot = slot;
      group.append(...this.slots[slot]);
      return group;
    });
    bar.replaceChildren(...groups);
    bar.hidden = groups.length === 0;
  }
}
