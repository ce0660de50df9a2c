// The reference kiosk UI: renders every step from the agent's view model alone and sends back what the
// participant did. Every control is a <button> (or input) with data-action naming the protocol action it
// performs (docs/UI-DEVELOPERS.md, "The reference UI"), so tests and a vendor's QA drive it by meaning.
// This file wires the modules (docs/UI-DEVELOPERS.md, "The reference UI's modules") and follows the agent's events.
import { watchConnection } from './connection-status.js';
import { showExpiring } from './expiring.js';
import { showOverlay } from './frame.js';
import { blockKioskGestures } from './gestures.js';
import { reader } from './listen.js';
import { render } from './render.js';
import { reload, routeReplies } from './requests.js';
import { showStart } from './screens/start.js';
import { agent, loadStudy, state, texts } from './session.js';
import { showStaffCall } from './step.js';

window.consentKiosk = { agent, state, reader };  // for the test suite and a vendor's QA (no PHI is kept here)
routeReplies({ render, start: showStart });

watchConnection(async (snapshot) => {
  state.pads = snapshot?.pads ?? [];
  await loadStudy();
  if (state.flow) {
    // After a reconnect: the flow goes on if the agent still has it (the bridge restarted), else start over.
    try { return render(await reload()); } catch {
      state.flow = null;
      return showStart(texts().interrupted);
    }
  }
  if (!state.current) showStart();
});

agent.on('flow.changed', (data) => {
  // The end screen of a completed flow follows its printed copy (Flow.copy: printing, printed, failed).
  if (data && data.flow === state.ended && state.current?.flow === data.flow && !state.busy) {
    if (data.copy?.state !== state.current.copy?.state) render(data);
    return;
  }
  if (!data || data.flow !== state.flow || state.busy) return;
  // Our own actions' replies render themselves; an event re-renders only when the screen itself changed (another
  // client acted on the flow, or it ended), so a signature being drawn is never wiped by its own echo.
  const now = state.current;
  if (now && now.step === data.step && now.view?.review?.page === data.view?.review?.page
      && now.view?.scene?.index === data.view?.scene?.index) {
    // A member of staff answered (or the call was made from elsewhere): the same screen says so.
    if (Boolean(now.view?.staffCall) !== Boolean(data.view?.staffCall)) {
      now.view.staffCall = data.view?.staffCall;
      showStaffCall(now.view);
    }
    return;
  }
  render(data);
});
agent.on('flow.expired', (data) => {
  if (data?.flow !== state.flow) return;
  state.flow = null;
  showStart(texts().expired);
});
// Time to think: the agent warns before the inactivity wipe; "I need more time" (flow.extend) keeps the flow.
agent.on('flow.expiring', (data) => {
  if (data?.flow !== state.flow || !Number.isInteger(data.secondsLeft)) return;
  showExpiring(data.secondsLeft);
});
agent.on('ink.points', (data) => {
  if (data?.flow !== state.flow || !state.signature) return;
  state.signature.addPadPoints(data.stroke, data.points);
});
agent.on('pad.added', (data) => { if (data?.pad) state.pads.push(data.pad); });
agent.on('pad.removed', (data) => { state.pads = state.pads.filter((pad) => pad.id !== data?.pad?.id); });
agent.on('events.overflow', async () => {
  if (state.flow) render(await reload());
});

blockKioskGestures();
showOverlay();
agent.connect();
