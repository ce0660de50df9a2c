// The connection's status on screen: the overlay while the page connects or reconnects, and what staff must fix
// when it cannot (a page opened without its token, a bridge the agent refuses). `onReady(snapshot)` runs each time
// the connection is up again.
import { errorText } from './errors.js';
import { hideOverlay, showOverlay } from './frame.js';
import { agent, texts } from './session.js';

// The only words this UI holds: shown before the agent has answered at all (so it cannot have sent its texts), to
// staff of a kiosk set up wrongly, hence in English only. Everything a participant reads comes from the agent:
// study.get's texts and the view model (docs/UI-DEVELOPERS.md, "Texts").
const BEFORE_THE_AGENT = {
  refused: 'PeerRefused: consentd does not allow consentweb\'s user (allowedPeers). See docs/OPERATIONS.md.',
  unreachable: 'No connection to consentweb /rpc: open the URL consentweb printed (with its ?token=).',
};

export function watchConnection(onReady) {
  let everConnected = false;
  let failures = 0;
  agent.onState(async (status, detail) => {
    const t = texts();
    if (status === 'connecting') return showOverlay(t?.reconnecting);
    if (status === 'disconnected') {
      // Refused before the WebSocket opened (no or a wrong token, a wrong Origin): after a few tries, say so to staff.
      failures = detail.opened ? 0 : failures + 1;
      if (!everConnected && failures >= 3) return showOverlay(BEFORE_THE_AGENT.unreachable);
      return showOverlay(t?.reconnecting);
    }
    if (status === 'refused') return showOverlay(BEFORE_THE_AGENT.refused);
    if (status === 'failed') return showOverlay(errorText(detail));
    if (status === 'ready') {
      everConnected = true;
      failures = 0;
      hideOverlay();
      await onReady(detail);
    }
  });
  agent.on('agent.stopping', () => showOverlay(texts()?.reconnecting));
}
