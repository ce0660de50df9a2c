// The request policy: the protocol method behind each view-model action, and how a participant's action is sent
// (one at a time, the screen's buttons disabled meanwhile) and what its reply or error does to the screen.
import { FLOW_GONE } from './constants.js';
import { clearError, errorText, showError } from './errors.js';
import { hideOverlay, screenButtons, showOverlay } from './frame.js';
import { ConnectionLost } from './rpc.js';
import { agent, state } from './session.js';

const METHODS = {
  answer: 'eligibility.answer', next: 'flow.next', back: 'flow.back', chooseSharing: 'sharing.choose',
  agree: 'review.agree', disagree: 'review.disagree', setName: 'participant.setName', beginSignature: 'signature.begin',
  clearSignature: 'signature.clear', submitSignature: 'signature.submit', setPasscode: 'passcode.set',
  complete: 'flow.complete', decline: 'flow.decline', cancel: 'flow.cancel', chooseSigner: 'signer.choose',
  setSignerName: 'signer.setName', confirmWithdrawal: 'withdrawal.confirm', printCopy: 'copy.print',
  comprehensionAnswer: 'comprehension.answer', optionalAnswer: 'optional.answer',
  staffUnlock: 'staff.unlock', attestIdentity: 'staff.attestIdentity', askStaff: 'staff.call', pause: 'flow.pause',
};

// What shows a flow reply, and the start screen: app.js wires them (they are screens, which send through here).
const screens = { render: () => {}, start: () => {} };
export function routeReplies({ render, start }) { Object.assign(screens, { render, start }); }

/// Sends the view-model `action` for the flow on screen.
export function call(action, params) {
  return agent.call(METHODS[action], { flow: state.flow, ...params });
}

/// The flow on screen again, as the agent has it.
export function reload() {
  return agent.call('flow.get', { flow: state.flow });
}

/// When `error` means the flow is gone (FLOW_GONE), shows the start screen saying why; whether it did.
export function startOverOn(error) {
  if (!FLOW_GONE.has(error?.type)) return false;
  state.flow = null;
  screens.start(errorText(error));
  return true;
}

/// Runs one request; renders its flow reply, or shows the error in words (StepMismatch re-renders the truth).
export async function perform(request, waitingText) {
  if (state.busy) return;
  state.busy = true;
  clearError();
  for (const b of screenButtons()) b.disabled = true;
  if (waitingText) showOverlay(waitingText);
  try {
    const reply = await request();
    if (waitingText) hideOverlay();
    state.busy = false;
    screens.render(reply);
  } catch (error) {
    state.busy = false;
    if (waitingText) hideOverlay();
    if (error instanceof ConnectionLost) return;
    if (error.type === 'StepMismatch' && state.flow) {
      try { return screens.render(await reload()); } catch { /* shown below */ }
    }
    if (startOverOn(error)) return;
    for (const b of screenButtons()) b.disabled = false;
    if (state.signature && error.type === 'SignatureTooShort') state.signature.clear();
    showError(error);
  }
}
