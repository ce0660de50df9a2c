// The participant page's one connection to the agent and what the page knows from it: the study and its texts in
// each language, the flow on screen and its last reply, the pads. Every screen reads them from here.
import { Agent } from './rpc.js';

export const state = {
  study: null, languages: [], language: null, flow: null, current: null, pads: [], signature: null,
  busy: false, texts: new Map(),
  // Read-aloud is on for the flow once the participant pressed Listen (each new screen is then read), until Stop.
  readAloud: false, expiring: null,
};

export const agent = new Agent({
  client: 'consent-kiosk-reference-ui/1', topics: ['flow', 'ink', 'pad'], capabilities: ['events', 'ink-stream', 'ui-strokes'],
});

/// The agent's UI texts in the language shown (or in the study's default one, or none before study.get answered).
export function texts() {
  return state.texts.get(state.language) ?? state.texts.get(state.study?.language);
}

// The study, and its UI texts in each of its languages (a language switch, and a flow another client started in
// another language, then need no request).
export async function loadStudy() {
  const reply = await agent.call('study.get', {});
  state.study = reply.study;
  state.languages = reply.study.languages;
  state.texts.set(reply.study.language, reply.study.texts);
  await Promise.all(state.languages.filter((l) => l.tag !== reply.study.language).map(async (l) => {
    state.texts.set(l.tag, (await agent.call('study.get', { language: l.tag })).study.texts);
  }));
  if (!state.language) state.language = (state.languages.find((l) => l.default) ?? state.languages[0]).tag;
}
