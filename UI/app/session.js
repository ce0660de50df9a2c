// The participant page's one connection to the agent and what the page knows from it: the study and its texts in
// each language, the flow on screen and its last reply, the pads. Every screen reads them from here.
import { Agent } from './rpc.js';

export const state = {
  study: null, languages: [], language: null, flow: null, current: null, pads: [], signature: null,
  busy: false, texts: new Map(),
  // The study's introduction (study.get's introduction: welcome, logo, pages) in each language that has one.
  introductions: new Map(),
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

/// The study's introduction in the language shown; undefined when that language has none.
export function introduction() {
  return state.introductions.get(state.language);
}

// The study, and its UI texts in each of its languages (a language switch, and a flow another client started in
// another language, then need no request).
export async function loadStudy() {
  const reply = await agent.call('study.get', {});
  state.study = reply.study;
  state.languages = reply.study.languages;
  const keep = (tag, study) => {
    state.texts.set(tag, study.texts);
    if (study.introduction) state.introductions.set(tag, study.introduction);
    else state.introductions.delete(tag);
  };
  keep(reply.study.language, reply.study);
  await Promise.all(state.languages.filter((l) => l.tag !== reply.study.language).map(async (l) => {
    keep(l.tag, (await agent.call('study.get', { language: l.tag })).study);
  }));
  if (!state.language) state.language = (state.languages.find((l) => l.default) ?? state.languages[0]).tag;
}
