// The asset cache: a study's images (study.asset) as data: URLs, asked for once each and kept for the page's life
// (a scene shown again, a learn-more text opened twice, need no request).
import { agent, state } from './session.js';

const cache = new Map();

/// The asset `name` as a data: URL, or null when the agent has none by that name.
export function loadAsset(name) {
  if (!cache.has(name)) {
    cache.set(name, agent.call('study.asset', { name, language: state.language })
      .then((a) => `data:${a.mediaType};base64,${a.data}`).catch(() => null));
  }
  return cache.get(name);
}
