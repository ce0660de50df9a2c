// The end screens (completed, declined, cancelled, expired, ineligible, paused with its code) and the done step before Complete: the
// agent's title and message, the participant's printed copy, and Start Again once the flow is over.
import { END_STEPS } from '../constants.js';
import { actionButton, element } from '../dom.js';
import { call } from '../requests.js';
import { ConnectionLost } from '../rpc.js';
import { state, texts } from '../session.js';
import { label } from '../step.js';
import { showStart } from './start.js';

export function end(body, view, reply, actions) {
  const e = view.end ?? {};
  body.append(element('h2', { textContent: e.title ?? view.title ?? '' }));
  // A paused flow's code comes first: it is what the participant must take away.
  if (reply.step === 'paused' && view.paused) resumeCode(body, view.paused);
  if (e.message) body.append(element('p', { className: 'summary', textContent: e.message }));
  if (reply.step === 'completed') copy(body, view, reply);
  if (END_STEPS.has(reply.step)) {
    // The flow is over; its id is kept only so that the end screen can print and follow the copy.
    state.ended = reply.flow ?? state.flow;
    state.flow = null;
    actions.primary(actionButton('start', texts().startAgain, () => showStart())).classList.add('large');
  }
}

// A paused flow's code, large enough to copy down, and the day it works until (the agent's words).
function resumeCode(body, paused) {
  const code = element('p', { className: 'resume-code', dataset: { resumeCode: paused.code } }, [
    element('span', { className: 'resume-code-label', textContent: paused.codeLabel }),
    element('strong', { textContent: paused.code }),
  ]);
  body.append(code, element('p', { className: 'resume-until', textContent: paused.text }));
}

// The participant's copy on the end screen: "Print my copy" while the agent offers printCopy, and what became of
// it (the words are the agent's: study.get's texts copyPrinting, copyPrinted, copyFailed).
function copy(body, view, reply) {
  const status = element('p', { className: 'copy-status', role: 'status' });
  const words = { printing: texts().copyPrinting, printed: texts().copyPrinted, failed: texts().copyFailed };
  if (reply.copy?.state) {
    status.textContent = words[reply.copy.state] ?? '';
    status.dataset.copy = reply.copy.state;
  }
  if (view.actions.includes('printCopy')) {
    const flow = reply.flow ?? state.flow;
    const button = actionButton('printCopy', label(view, 'printCopy'), async () => {
      button.disabled = true;
      status.textContent = texts().copyPrinting;
      status.dataset.copy = 'printing';
      try {
        await call('printCopy', { flow });
      } catch (error) {
        if (error instanceof ConnectionLost) return;
        status.textContent = texts().copyFailed;
        status.dataset.copy = 'failed';
        button.disabled = false;
      }
    });
    button.classList.add('large');
    body.append(button);
  }
  body.append(status);
}
