// The Listen control in the header's tools: reads the screen aloud (speech.js plays what the agent speaks). On a
// flow's screens read-aloud then stays on, each new screen read as it shows, until pressed again.
import { actionButton } from './dom.js';
import { learnMoreOpen } from './frame.js';
import { state, agent, texts } from './session.js';
import { ReadAloud } from './speech.js';
import { setTool } from './tools.js';

export const reader = new ReadAloud(agent, () => updateListen());

/// Listen on a flow's screens; `reply` is the screen's.
export function listenToFlow(reply) {
  listenButton(() => {
    if (reader.playing) {
      state.readAloud = false;
      reader.stop();
      return;
    }
    state.readAloud = true;
    const current = state.current ?? reply;
    reader.play(reply.flow ?? state.flow, state.expiring ? [{ part: 'expiring' }] : spokenParts(current), screenName(current));
  });
}

/// Listen on the screens before a flow (the start screen, the record screen): the agent speaks them in the language
/// chosen on the start screen.
export function listenBeforeAFlow(part, params = {}) {
  listenButton(() => {
    if (reader.playing) return reader.stop();
    reader.play(null, [{ part, language: state.language, ...params }], part);
  });
}

/// A new screen of the flow shows (`changed`: it says something else than the last): reading goes on with it.
export function readOnTo(reply, changed) {
  if (!changed) return;
  reader.stop();
  if (state.readAloud) reader.play(reply.flow, spokenParts(reply), screenName(reply));
}

/// Read-aloud ends with the flow (the next participant's start screen).
export function stopReadingAloud() {
  state.readAloud = false;
  reader.stop();
}

function listenButton(onPress) {
  const button = actionButton('listen', texts()?.listen ?? '', onPress);
  button.classList.add('listen');
  setTool('listen', button);
  updateListen();
}

function updateListen() {
  const t = texts();
  const button = document.querySelector('[data-tool="listen"]');
  if (!button) return;
  button.textContent = reader.playing ? (t?.stopListening ?? '') : (t?.listen ?? '');
  button.setAttribute('aria-pressed', String(reader.playing));
}

/// What Listen reads on a screen: the screen (title, texts, choices), then the review document or the key
/// information section by section; an open learn-more page instead of the screen.
function spokenParts(reply) {
  if (learnMoreOpen()) return [{ part: 'learnMore' }];
  const parts = [{ part: 'screen' }];
  if (reply.view?.review?.page === 'document' || reply.view?.keyInformation) parts.push({ part: 'document', section: 'all' });
  return parts;
}

/// `step/page-or-scene`: which screen the audio element last played for.
function screenName(reply) {
  return `${reply.step}/${reply.view?.review?.page ?? reply.view?.scene?.index ?? ''}`;
}
