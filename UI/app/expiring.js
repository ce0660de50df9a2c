// Time to think: the agent warns before the inactivity wipe (flow.expiring); a dialog over the screen counts down
// from its secondsLeft, "I need more time" (flow.extend) keeps the flow, and it is spoken when read-aloud is on.
import { actionButton, element } from './dom.js';
import { showError } from './errors.js';
import { reader } from './listen.js';
import { startOverOn } from './requests.js';
import { ConnectionLost } from './rpc.js';
import { agent, state, texts } from './session.js';

export function showExpiring(secondsLeft) {
  hideExpiring();
  const t = texts();
  const flow = state.flow;
  const deadline = Date.now() + secondsLeft * 1000;
  const title = element('h2', { id: 'expiring-title', textContent: t.expiringTitle });
  const sentence = element('p', { id: 'expiring-text', className: 'countdown' });
  const tick = () => {
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    sentence.textContent = t.expiring.replace('{seconds}', String(left));
    sentence.dataset.secondsLeft = String(left);
  };
  tick();
  const more = actionButton('moreTime', t.moreTime, async () => {
    more.disabled = true;
    try {
      await agent.call('flow.extend', { flow });
      hideExpiring();
    } catch (error) {
      if (error instanceof ConnectionLost) return;
      hideExpiring();
      if (!startOverOn(error)) showError(error);
    }
  });
  more.classList.add('primary', 'large');
  const dialog = element('div', { className: 'expiring', role: 'alertdialog', dataset: { dialog: 'expiring' } }, [
    element('div', { className: 'expiring-box' }, [title, sentence, more]),
  ]);
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', 'expiring-title');
  dialog.setAttribute('aria-describedby', 'expiring-text');
  document.body.append(dialog);
  state.expiring = { dialog, timer: setInterval(tick, 1000) };
  more.focus();
  if (state.readAloud) reader.play(flow, [{ part: 'expiring' }], 'expiring');
}

/// The warning goes: the flow was extended, or any reply came (the agent's inactivity clock started again).
export function hideExpiring() {
  if (!state.expiring) return;
  clearInterval(state.expiring.timer);
  state.expiring.dialog.remove();
  state.expiring = null;
}
