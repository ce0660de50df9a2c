// Read-aloud: plays what the agent speaks for the current screen (speech.get, docs/UI-DEVELOPERS.md "Read aloud").
// The agent synthesises the audio (eSpeak NG) in chunks of whole sentences: each chunk plays as soon as it came,
// the next one is asked for while it plays, so a long review document never waits for its last sentence.

export class ReadAloud {
  /// `agent` is the Agent of rpc.js; `onChange(playing)` runs when playback starts or stops.
  constructor(agent, onChange = () => {}) {
    this.agent = agent;
    this.onChange = onChange;
    this.audio = new Audio();
    this.audio.id = 'speech-audio';
    this.audio.preload = 'auto';
    this.generation = 0;
    this.playing = false;
    // Kept in the page (not shown) so a test and a vendor's QA can see what was played.
    this.audio.hidden = true;
    document.body.append(this.audio);
  }

  /// Plays `parts` in turn (each `{part, section?}`, or `{part, language}` before a flow with `flow` null; `section: 'all'` is every section of the document) for `flow`;
  /// whatever played before stops. `screen` names the screen (`step/page`) on the audio element, for tests.
  async play(flow, parts, screen = '') {
    const generation = ++this.generation;
    this.screen = screen;
    this.setPlaying(true);
    try {
      for (const entry of parts) {
        if (entry.part === 'document' && entry.section === 'all') {
          let sections = 1;
          for (let section = 0; section < sections; section++) {
            const first = await this.playPart(flow, { part: 'document', section }, generation);
            if (first === null) return;
            sections = first.sections ?? 1;
          }
        } else if (await this.playPart(flow, entry, generation) === null) {
          return;
        }
      }
    } catch {
      // SpeechUnavailable, UnknownPart, a lost connection: reading stops; the screen itself is unchanged.
    } finally {
      if (generation === this.generation) this.setPlaying(false);
    }
  }

  /// Plays every chunk of one part; returns its first reply, or null when a newer play or stop() cut it short.
  async playPart(flow, entry, generation) {
    // The start and record screens come before a flow: their parts name the language instead.
    const ask = (chunk) => this.agent.call('speech.get', flow ? { flow, ...entry, chunk } : { ...entry, chunk });
    let reply = await ask(0);
    const first = reply;
    for (let chunk = 0; ; chunk++) {
      if (generation !== this.generation) return null;
      const next = chunk + 1 < reply.chunks ? ask(chunk + 1) : null;
      next?.catch(() => {});
      await this.playChunk(reply, entry);
      if (generation !== this.generation) return null;
      if (!next) return first;
      reply = await next;
    }
  }

  /// Resolves when the chunk ended (or could not play: a kiosk without a sound device goes on silently).
  playChunk(reply, entry) {
    return new Promise((resolve) => {
      const audio = this.audio;
      const done = () => {
        audio.removeEventListener('ended', done);
        audio.removeEventListener('error', done);
        clearTimeout(timer);
        resolve();
      };
      audio.addEventListener('ended', done);
      audio.addEventListener('error', done);
      // Never hang on a device that neither plays nor fails: the chunk's own length and a second.
      const timer = setTimeout(done, (reply.durationMs ?? 0) + 1000);
      audio.dataset.screen = this.screen;
      audio.dataset.part = entry.part;
      audio.dataset.section = entry.section ?? '';
      audio.dataset.chunk = String(reply.chunk);
      audio.src = `data:${reply.mediaType};base64,${reply.data}`;
      audio.play().catch(() => {});
      this.stopCurrent = done;
    });
  }

  stop() {
    this.generation++;
    this.audio.pause();
    this.stopCurrent?.();
    this.setPlaying(false);
  }

  setPlaying(playing) {
    if (this.playing === playing) return;
    this.playing = playing;
    this.onChange(playing);
  }
}
