// A signature page (the participant's, a representative's, a witness's, the staff countersignature): the signing
// canvas at the view's signingArea, Clear, and Sign. With a pad the agent captures there too (signature.begin), and
// its ink is echoed on the canvas as it is drawn (ink.points, app.js).
import { actionButton, element } from '../dom.js';
import { showError } from '../errors.js';
import { call, perform } from '../requests.js';
import { state } from '../session.js';
import { SignatureCanvas } from '../signature.js';
import { afterShown, label, showStep } from '../step.js';
import { nameForm } from './names.js';

export function signaturePage(body, actions, view, role) {
  const r = view.review ?? view.staff;
  if (r.signatureInstruction) body.append(element('p', { className: 'summary', textContent: r.signatureInstruction }));
  const pad = new SignatureCanvas({ area: r.signingArea, role });
  state.signature = pad;
  const clear = actionButton('clearSignature', label(view, 'clearSignature'), () => {
    pad.clear();
    if (padCaptures()) call('clearSignature', { role }).catch(showError);
  });
  const submit = actionButton('submitSignature', label(view, 'submitSignature'), () => {
    const params = { role };
    // Strokes drawn on the screen win; otherwise the pad's own capture is what the agent records.
    if (pad.drawnOnScreen || !padCaptures()) params.strokes = pad.strokesForSubmit();
    perform(() => call('submitSignature', params));
  });
  const update = () => { submit.disabled = pad.isEmpty; clear.disabled = pad.isEmpty; };
  pad.onChange = update;
  update();
  const controls = [clear];
  // The name can still be corrected here (labels.setName is "Change name" on this page): the name form replaces
  // the signing area.
  if (role === 'participant' && view.actions.includes('setName')) {
    const change = actionButton('setName', label(view, 'setName'), () => {
      state.signature = null;
      showStep('reviewStep', view, state.current, nameForm);
    });
    change.dataset.change = 'name';
    controls.unshift(change);
  }
  body.append(element('div', { className: 'signature-frame' }, [pad.canvas]),
    element('div', { className: 'row' }, controls));
  actions.primary(submit);
  if (state.pads.length && view.actions.includes('beginSignature') && !r.hasSignature) {
    afterShown(() => call('beginSignature', { role }).then((reply) => {
      const area = (reply?.view?.review ?? reply?.view?.staff)?.signingArea;
      if (area?.source === 'pad') pad.setArea(area);
      // The reply is the flow as it is now, the capture running: what padCaptures() reads.
      if (state.signature === pad && reply?.view) state.current = reply;
    }).catch(() => {}));
  }
}

/// Whether a pad captures the signature on screen, as the agent's view model says: the signing area's source is
/// 'pad' while a capture runs for the flow, 'default' when none does, on the review's and the staff step's signing
/// pages alike (Protocol/schemas/types/StepViewModel.schema.json, signingArea).
function padCaptures() {
  const view = state.current?.view;
  return (view?.review ?? view?.staff)?.signingArea?.source === 'pad';
}
