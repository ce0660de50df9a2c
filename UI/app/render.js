// Renders a flow reply: the header, the Listen control, and the step's screen by its builder (screens/), from the
// agent's view model alone.
import { setHeader } from './frame.js';
import { hideExpiring } from './expiring.js';
import { listenToFlow, readOnTo } from './listen.js';
import { state } from './session.js';
import { showStep } from './step.js';
import { comprehension } from './screens/comprehension.js';
import { end } from './screens/end.js';
import { passcode, withdrawal } from './screens/entry.js';
import { eligibility } from './screens/eligibility.js';
import { changes, keyInformation, scene } from './screens/information.js';
import { review } from './screens/review.js';
import { optional } from './screens/optional.js';
import { sharing } from './screens/sharing.js';
import { staffStep } from './screens/staff-step.js';

// Each step's builder; any other step (done, and every end state) is an end screen.
const BUILDERS = {
  eligibility, keyInformation, visual: scene, sharing, optional, reviewStep: review, passcode, withdrawal, changes, comprehension, staff: staffStep,
};

export function render(reply) {
  if (!reply?.view) return;
  state.flow = reply.flow ?? state.flow;
  state.current = reply;
  const view = reply.view;
  state.language = view.language ?? reply.language ?? state.language;
  document.documentElement.lang = state.language;
  setHeader(view.studyTitle ?? state.study?.title ?? '', view.title);
  // Read-aloud reads a screen again when what it says changed (a new step, page, scene, title or eligibility status).
  const shown = JSON.stringify([reply.flow, reply.step, view.review?.page, view.scene?.index, view.title,
    view.eligibility?.status]);
  const screenChanged = state.shown !== shown;
  state.shown = shown;
  listenToFlow(reply);
  // A reply means an accepted action (or another client's): the agent's inactivity clock started again.
  hideExpiring();
  if (reply.step !== 'reviewStep' || view.review?.page !== 'signature') state.signature = null;
  showStep(reply.step, view, reply, BUILDERS[reply.step] ?? end);
  readOnTo(reply, screenChanged);
}
