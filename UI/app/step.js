// A step's screen: its builder fills the content (body) and puts its primary action in the action bar
// (actions.primary); the view's own navigation (Back, the ways out, Next/Agree/Complete) follows it into the bar's
// slots (docs/UI-DEVELOPERS.md, "Screens that fit"). Builders are called as builder(body, view, reply, actions).
import { ActionBar } from './actionbar.js';
import { actionButton, element } from './dom.js';
import { show } from './frame.js';
import { setTool } from './tools.js';
import { call, perform } from './requests.js';
import { texts } from './session.js';

// Actions of the view shown in the action bar, by slot; the others belong to the step's own controls.
const NAVIGATION = { back: 'back', cancel: 'exit', decline: 'exit', disagree: 'exit', agree: 'primary', next: 'primary',
  complete: 'primary' };

let afterShow = null;

/// Every offered action has its label in the view (the schema requires it); a symbol stands in only for the two
/// answers' marks.
export function label(view, key, fallback) {
  return view.labels?.[key] ?? fallback ?? key;
}

/// Runs `run` once the screen being built is shown (a field to focus, a pad capture to begin).
export function afterShown(run) { afterShow = run; }

/// Builds the screen of `step` with `builder` and shows it.
export function showStep(step, view, reply, builder) {
  const body = element('section', { className: `step step-${step}`, dataset: { screen: step } });
  const actions = new ActionBar();
  afterShow = null;
  pause(view);
  askStaff(view);
  const notice = staffCallNotice(view);
  if (notice) body.append(notice);
  // A flow started with a resume code says, once, whether it goes on where it stopped or starts over.
  if (view.resumed) {
    body.append(element('p', { className: 'notice resumed', role: 'status', textContent: view.resumed.text,
      dataset: { resumed: view.resumed.outcome } }));
  }
  builder(body, view, reply, actions);
  navigation(view, reply, actions);
  show(body, actions);
  if (afterShow) { const run = afterShow; afterShow = null; run(); }
}

/// "Ask a staff member" (askStaff), a header tool on every screen that offers it; while the member of staff called
/// is on the way (view.staffCall) it shows it is pressed.
function askStaff(view) {
  if (!view.actions.includes('askStaff')) { setTool('askStaff', null); return; }
  const called = Boolean(view.staffCall);
  const button = actionButton('askStaff', label(view, 'askStaff'), () => {
    if (!called) perform(() => call('askStaff', {}));
  });
  button.classList.add('ask-staff');
  button.setAttribute('aria-pressed', String(called));
  setTool('askStaff', button);
}

/// "I want to think about it" (pause), a header tool before the signature: the agent seals the flow's place under a
/// code, and the reply is the paused screen that shows it.
function pause(view) {
  if (!view.actions.includes('pause')) { setTool('pause', null); return; }
  const button = actionButton('pause', label(view, 'pause'), () => perform(() => call('pause', {})));
  button.classList.add('pause');
  setTool('pause', button);
}

/// While the member of staff called is on the way, the screen begins with the agent's words for it.
function staffCallNotice(view) {
  if (!view.staffCall) return null;
  return element('p', { className: 'notice staff-call', role: 'status', textContent: view.staffCall.text,
    dataset: { staffCall: view.staffCall.reason } });
}

/// The call answered (or made) from elsewhere, on the screen shown: only the tool and the notice change, so what
/// the participant is doing there (a signature being drawn, a name being typed) is left as it is.
export function showStaffCall(view) {
  pause(view);
  askStaff(view);
  const section = document.querySelector('#screen > section');
  section?.querySelector(':scope > .staff-call')?.remove();
  const notice = staffCallNotice(view);
  if (notice && section) section.prepend(notice);
}

/// What Complete says while the record is written: a withdrawal and a change of answers are saved too, but
/// "saving your consent" would tell the participant something else than what happens.
function saving(reply) {
  const t = texts();
  if (reply.withdraws) return t.savingWithdrawal ?? t.saving;
  if (reply.amends) return t.savingChange ?? t.saving;
  return t.saving;
}

/// The view's own navigation into the action bar's slots.
function navigation(view, reply, actions) {
  for (const [action, slot] of Object.entries(NAVIGATION)) {
    if (!view.actions.includes(action)) continue;
    if (action === 'next' && reply.step === 'eligibility' && view.eligibility?.status !== 'eligible') continue;
    // The optional step's own button sends the answers, and with every answer given that goes on: one way forward.
    if (action === 'next' && reply.step === 'optional') continue;
    const button = actionButton(action, label(view, action), () => {
      if (action === 'complete') {
        return perform(() => call('complete', {}), saving(reply));
      }
      if (action === 'next' || action === 'back') return perform(() => call(action, { step: reply.step }));
      return perform(() => call(action, {}));
    });
    actions.add(slot, button);
  }
}
