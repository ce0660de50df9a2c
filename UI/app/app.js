// The reference kiosk UI: renders every step from the agent's view model alone and sends back what the
// participant did. Every control is a <button> (or input) with data-action naming the protocol action it
// performs (docs/UI-DEVELOPERS.md, "The reference UI"), so tests and a vendor's QA drive it by meaning.
import { ActionBar } from './actionbar.js';
import { resetDisplay, showDisplayControls } from './display.js';
import { Agent, ConnectionLost } from './rpc.js';
import { renderStudyHTML } from './html.js';
import { keyboard } from './keyboard.js';
import { SignatureCanvas } from './signature.js';
import { setTool } from './tools.js';
import { ReadAloud } from './speech.js';

const METHODS = {
  answer: 'eligibility.answer', next: 'flow.next', back: 'flow.back', chooseSharing: 'sharing.choose',
  agree: 'review.agree', disagree: 'review.disagree', setName: 'participant.setName', beginSignature: 'signature.begin',
  clearSignature: 'signature.clear', submitSignature: 'signature.submit', setPasscode: 'passcode.set',
  complete: 'flow.complete', decline: 'flow.decline', cancel: 'flow.cancel', chooseSigner: 'signer.choose',
  setSignerName: 'signer.setName', confirmWithdrawal: 'withdrawal.confirm', printCopy: 'copy.print',
  comprehensionAnswer: 'comprehension.answer',
  staffUnlock: 'staff.unlock', attestIdentity: 'staff.attestIdentity',
};
// Actions of the view shown in the action bar (actionbar.js), by slot; the others belong to the step's own controls.
const NAVIGATION = { back: 'back', cancel: 'exit', decline: 'exit', disagree: 'exit', agree: 'primary', next: 'primary',
  complete: 'primary' };
const END_STEPS = new Set(['completed', 'declined', 'cancelled', 'expired', 'ineligible']);
// The only words this UI holds: shown before the agent has answered at all (so it cannot have sent its texts), to
// staff of a kiosk set up wrongly, hence in English only. Everything a participant reads comes from the agent:
// study.get's texts and the view model (docs/UI-DEVELOPERS.md, "Texts").
const BEFORE_THE_AGENT = {
  refused: 'PeerRefused: consentd does not allow consentweb\'s user (allowedPeers). See docs/OPERATIONS.md.',
  unreachable: 'No connection to consentweb /rpc: open the URL consentweb printed (with its ?token=).',
};

const screen = document.getElementById('screen');
const header = document.getElementById('header');
const actionBar = document.getElementById('actions');
const banner = document.getElementById('banner');
const staffNotice = document.getElementById('staff-notice');
const overlay = document.getElementById('overlay');

const state = {
  study: null, languages: [], language: null, flow: null, current: null, pads: [], signature: null,
  assetCache: new Map(), busy: false, notice: null, texts: new Map(), failures: 0,
  // Read-aloud is on for the flow once the participant pressed Listen (each new screen is then read), until Stop.
  readAloud: false, expiring: null,
};

const agent = new Agent({
  client: 'consent-kiosk-reference-ui/1', topics: ['flow', 'ink', 'pad'], capabilities: ['events', 'ink-stream', 'ui-strokes'],
});
const reader = new ReadAloud(agent, () => updateListen());
window.consentKiosk = { agent, state, reader };  // for the test suite and a vendor's QA (no PHI is kept here)

agent.onState(async (status, detail) => {
  const t = texts();
  if (status === 'connecting') return showOverlay(t?.reconnecting);
  if (status === 'disconnected') {
    // Refused before the WebSocket opened (no or a wrong token, a wrong Origin): after a few tries, say so to staff.
    state.failures = detail.opened ? 0 : state.failures + 1;
    if (!state.everConnected && state.failures >= 3) return showOverlay(BEFORE_THE_AGENT.unreachable);
    return showOverlay(t?.reconnecting);
  }
  if (status === 'refused') return showOverlay(BEFORE_THE_AGENT.refused);
  if (status === 'failed') return showOverlay(errorText(detail));
  if (status === 'ready') {
    state.everConnected = true;
    state.failures = 0;
    state.pads = detail?.pads ?? [];
    hideOverlay();
    await loadStudy();
    if (state.flow) {
      // After a reconnect: the flow goes on if the agent still has it (the bridge restarted), else start over.
      try { return render(await agent.call('flow.get', { flow: state.flow })); } catch {
        state.flow = null;
        return showStart(texts().interrupted);
      }
    }
    if (!state.current) showStart();
  }
});

agent.on('flow.changed', (data) => {
  // The end screen of a completed flow follows its printed copy (Flow.copy: printing, printed, failed).
  if (data && data.flow === state.ended && state.current?.flow === data.flow && !state.busy) {
    if (data.copy?.state !== state.current.copy?.state) render(data);
    return;
  }
  if (!data || data.flow !== state.flow || state.busy) return;
  // Our own actions' replies render themselves; an event re-renders only when the screen itself changed (another
  // client acted on the flow, or it ended), so a signature being drawn is never wiped by its own echo.
  const now = state.current;
  if (now && now.step === data.step && now.view?.review?.page === data.view?.review?.page
      && now.view?.scene?.index === data.view?.scene?.index) return;
  render(data);
});
agent.on('flow.expired', (data) => {
  if (data?.flow !== state.flow) return;
  state.flow = null;
  showStart(texts().expired);
});
// Time to think: the agent warns before the inactivity wipe; "I need more time" (flow.extend) keeps the flow.
agent.on('flow.expiring', (data) => {
  if (data?.flow !== state.flow || !Number.isInteger(data.secondsLeft)) return;
  showExpiring(data.secondsLeft);
});
agent.on('ink.points', (data) => {
  if (data?.flow !== state.flow || !state.signature) return;
  state.signature.addPadPoints(data.stroke, data.points);
});
agent.on('pad.added', (data) => { if (data?.pad) state.pads.push(data.pad); });
agent.on('pad.removed', (data) => { state.pads = state.pads.filter((pad) => pad.id !== data?.pad?.id); });
agent.on('events.overflow', async () => {
  if (state.flow) render(await agent.call('flow.get', { flow: state.flow }));
});
agent.on('agent.stopping', () => showOverlay(texts()?.reconnecting));

// The study, and its UI texts in each of its languages (a language switch, and a flow another client started in
// another language, then need no request).
async function loadStudy() {
  const reply = await agent.call('study.get', {});
  state.study = reply.study;
  state.languages = reply.study.languages;
  state.texts.set(reply.study.language, reply.study.texts);
  await Promise.all(state.languages.filter((l) => l.tag !== reply.study.language).map(async (l) => {
    state.texts.set(l.tag, (await agent.call('study.get', { language: l.tag })).study.texts);
  }));
  if (!state.language) state.language = (state.languages.find((l) => l.default) ?? state.languages[0]).tag;
}

/// The agent's UI texts in the language shown (or in the study's default one, or none before study.get answered).
function texts() {
  return state.texts.get(state.language) ?? state.texts.get(state.study?.language);
}

function errorText(error) {
  const t = texts();
  return t?.errors?.[error?.type] ?? t?.errors?.InternalError ?? error?.message ?? '';
}

// MARK: Screens

/// The start screen. A flow's text size and contrast end here (the next participant's screen), except when the
/// participant only switched the language or came back from the record screen (`keepDisplay`).
function showStart(message, { keepDisplay = false } = {}) {
  state.current = null;
  state.flow = null;
  state.signature = null;
  if (!keepDisplay) resetDisplay();
  state.readAloud = false;
  reader.stop();
  hideExpiring();
  const t = texts();
  const language = state.languages.find((l) => l.tag === state.language);
  document.documentElement.lang = state.language ?? 'en';
  setHeader(language?.title ?? state.study?.title ?? '');
  state.shown = null;
  listenBeforeAFlow('start');
  const body = element('section', { className: 'start', dataset: { screen: 'start' } });
  if (message) body.append(element('p', { className: 'notice', role: 'status', textContent: message }));
  body.append(element('h1', { textContent: language?.title ?? state.study?.title ?? '' }));
  if (state.languages.length > 1) {
    const picker = element('div', { className: 'languages', role: 'group', ariaLabel: t.languagePicker });
    for (const entry of state.languages) {
      const button = actionButton('language', entry.name ?? entry.tag, () => {
        state.language = entry.tag;
        reader.stop();
        showStart(message, { keepDisplay: true });
      });
      button.dataset.language = entry.tag;
      button.setAttribute('aria-pressed', String(entry.tag === state.language));
      button.lang = entry.tag;
      picker.append(button);
    }
    body.append(picker);
  }
  const actions = new ActionBar();
  // A consent given earlier: withdrawn, or signed again in a changed study's new version (flow.start with withdraw
  // or previous). Quiet, before the start: most people come to consent.
  actions.exit(actionButton('existingRecord', t.existingRecord, () => showRecordScreen()));
  const start = actionButton('start', t.start, () => perform(() => agent.call('flow.start', { language: state.language })));
  actions.primary(start).classList.add('large');
  show(body, actions);
}

/// The record number (and passcode, when one was set) of a consent given earlier, then a withdrawal or a
/// re-consent of it; the agent answers in the record's language.
function showRecordScreen() {
  const t = texts();
  reader.stop();
  listenBeforeAFlow('record');
  const body = element('section', { className: 'start record', dataset: { screen: 'record' } });
  body.append(element('h2', { textContent: t.existingRecord }),
    element('p', { className: 'summary', textContent: t.existingRecordText }));
  const form = element('form', { className: 'names', autocomplete: 'off' });
  form.addEventListener('submit', (event) => event.preventDefault());
  const record = element('input', { type: 'text', maxLength: 36, id: 'record' });
  record.dataset.field = 'record';
  const code = element('input', { type: 'password', maxLength: 8, id: 'record-passcode', className: 'passcode' });
  code.dataset.field = 'passcode';
  form.append(element('label', { htmlFor: 'record', textContent: t.recordLabel }), record,
    element('label', { htmlFor: 'record-passcode', textContent: t.recordPasscodeLabel }), code);
  const start = (params) => perform(() => agent.call('flow.start', params));
  const withdraw = actionButton('withdraw', t.withdraw, () => {
    const params = { withdraw: record.value.trim() };
    if (code.value) params.passcode = code.value;
    start(params);
  });
  const reconsent = actionButton('reconsent', t.reconsent, () => start({ previous: record.value.trim() }));
  const back = actionButton('back', t.back, () => showStart(undefined, { keepDisplay: true }));
  const update = () => { withdraw.disabled = reconsent.disabled = record.value.trim() === ''; };
  record.addEventListener('input', update);
  update();
  body.append(form, keyboard({ layout: 'record', texts: t, fields: [record, code] }));
  // Two equal ways on: neither is emphasised over the other.
  const actions = new ActionBar();
  actions.back(back).classList.add('quiet');
  actions.add('primary', reconsent, { emphasis: false });
  actions.add('primary', withdraw, { emphasis: false });
  show(body, actions);
  record.focus();
}

function render(reply) {
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
  listenControl(reply);
  // A reply means an accepted action (or another client's): the agent's inactivity clock started again.
  hideExpiring();
  const body = element('section', { className: `step step-${reply.step}`, dataset: { screen: reply.step } });
  if (reply.step !== 'reviewStep' || view.review?.page !== 'signature') state.signature = null;
  const builders = {
    eligibility: eligibility, visual: scene, sharing: sharing, reviewStep: review, passcode: passcode,
    withdrawal: withdrawal, changes: changes, comprehension: comprehension, staff: staffStep,
  };
  const builder = builders[reply.step] ?? end;
  // A builder fills the screen's content (body) and puts its primary action in the action bar (actions.primary);
  // the view's navigation follows it there.
  const actions = new ActionBar();
  builder(body, view, reply, actions);
  navigation(view, reply, actions);
  show(body, actions);
  if (state.afterRender) { const run = state.afterRender; state.afterRender = null; run(); }
  if (screenChanged) {
    reader.stop();
    if (state.readAloud) reader.play(reply.flow, spokenParts(reply), screenName(reply));
  }
}

// MARK: Read aloud and time to think

/// What Listen reads on a screen: the screen (title, texts, choices), then the review document section by section;
/// an open learn-more page instead of the screen.
function spokenParts(reply) {
  if (screen.querySelector('.learn-more:not([hidden])')) return [{ part: 'learnMore' }];
  const parts = [{ part: 'screen' }];
  if (reply.view?.review?.page === 'document') parts.push({ part: 'document', section: 'all' });
  return parts;
}

/// `step/page-or-scene`: which screen the audio element last played for.
function screenName(reply) {
  return `${reply.step}/${reply.view?.review?.page ?? reply.view?.scene?.index ?? ''}`;
}

/// The Listen control in the header: reads the screen aloud and keeps reading each new one, until pressed again.
function listenControl(reply) {
  const t = texts();
  const button = actionButton('listen', t?.listen ?? '', () => {
    if (reader.playing) {
      state.readAloud = false;
      reader.stop();
      return;
    }
    state.readAloud = true;
    const current = state.current ?? reply;
    reader.play(reply.flow ?? state.flow, state.expiring ? [{ part: 'expiring' }] : spokenParts(current), screenName(current));
  });
  button.classList.add('listen');
  setTool('listen', button);
  updateListen();
}

/// Listen on the screens before a flow (the start screen, the record screen): the agent speaks them in the language
/// chosen on the start screen.
function listenBeforeAFlow(part) {
  const button = actionButton('listen', texts()?.listen ?? '', () => {
    if (reader.playing) return reader.stop();
    reader.play(null, [{ part, language: state.language }], part);
  });
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

/// The warning before the wipe: a countdown from the agent's secondsLeft and "I need more time"; spoken when
/// read-aloud is on.
function showExpiring(secondsLeft) {
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
      if (['UnknownFlow', 'FlowExpired', 'FlowFinished'].includes(error.type)) return showStart(errorText(error));
      showError(error);
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

function hideExpiring() {
  if (!state.expiring) return;
  clearInterval(state.expiring.timer);
  state.expiring.dialog.remove();
  state.expiring = null;
}

function eligibility(body, view, reply, actions) {
  const e = view.eligibility;
  if (e.heading) body.append(element('h2', { textContent: e.heading }));
  if (e.message) body.append(element('p', { textContent: e.message }));
  const chosen = [...e.answers];
  const list = element('ol', { className: 'questions' });
  const send = actionButton('answer', label(view, 'answer'), () =>
    perform(() => call('answer', { answers: chosen })));
  const canSend = () => { send.disabled = chosen.some((a) => a === null || a === undefined); };
  e.questions.forEach((question, index) => {
    const item = element('li', { className: 'question' });
    item.append(element('p', { textContent: question }));
    const answers = element('div', { className: 'answers', role: 'group' });
    for (const [value, key] of [[true, 'yes'], [false, 'no']]) {
      const button = actionButton('answer', label(view, `answer.${key}`, key === 'yes' ? '✓' : '✗'), () => {
        chosen[index] = value;
        for (const b of answers.children) b.setAttribute('aria-pressed', String(b === button));
        canSend();
      });
      button.dataset.question = String(index);
      button.dataset.answer = key;
      button.setAttribute('aria-pressed', String(chosen[index] === value));
      answers.append(button);
    }
    item.append(answers);
    list.append(item);
  });
  body.append(list);
  if (view.actions.includes('answer')) {
    canSend();
    // Once eligible, the answers can still be changed and sent again, but the way on is Next: only it stands out.
    actions.add('primary', send, { emphasis: e.status !== 'eligible' || !view.actions.includes('next') });
  }
}

function scene(body, view) {
  const s = view.scene;
  body.append(element('p', { className: 'progress', textContent: `${s.index + 1} / ${s.count}` }));
  const layout = element('div', { className: 'scene' });
  if (s.image) {
    const image = element('img', { className: 'scene-image', alt: '' });
    image.dataset.asset = s.image;
    loadAsset(s.image).then((url) => { if (url) image.src = url; else image.remove(); });
    layout.append(image);
  }
  const words = element('div', { className: 'scene-text' });
  if (s.title) words.append(element('h2', { textContent: s.title }));
  if (s.summary) words.append(element('p', { className: 'summary', textContent: s.summary }));
  if (s.learnMoreHTML) words.append(learnMore(s.learnMoreTitle, s.learnMoreHTML));
  layout.append(words);
  body.append(layout);
}

function sharing(body, view, reply, actions) {
  const s = view.sharing;
  body.append(element('p', { className: 'summary', textContent: s.text }));
  if (s.learnMoreHTML) body.append(learnMore(s.learnMoreTitle, s.learnMoreHTML));
  let choice = s.selected;
  const group = element('div', { className: 'choices', role: 'group' });
  const confirm = actionButton('chooseSharing', label(view, 'chooseSharing'), () =>
    perform(() => call('chooseSharing', { shareWidely: choice })));
  for (const option of s.choices) {
    const button = actionButton('chooseSharing', option.text, () => {
      choice = option.shareWidely;
      for (const b of group.children) b.setAttribute('aria-pressed', String(b === button));
      confirm.disabled = false;
    });
    button.dataset.choice = String(option.shareWidely);
    button.classList.add('choice');
    button.setAttribute('aria-pressed', String(choice === option.shareWidely));
    group.append(button);
  }
  confirm.disabled = choice === undefined || choice === null;
  confirm.dataset.confirm = 'true';
  body.append(group);
  actions.primary(confirm);
}

// The comprehension check: a question and its choices (each choice answers at once), or, after a wrong answer,
// the agent's message, the explanation and the section again; the navigation's next asks again or goes on.
function comprehension(body, view) {
  const c = view.comprehension;
  body.append(element('p', { className: 'progress', textContent: c.progress }));
  body.append(element('h2', { className: 'comprehension-question', textContent: c.question }));
  if (c.phase === 'question') {
    body.append(element('p', { className: 'summary', textContent: c.text }));
    const group = element('div', { className: 'choices', role: 'group', ariaLabel: c.question });
    c.choices.forEach((text, index) => {
      const button = actionButton('comprehensionAnswer', text, () =>
        perform(() => call('comprehensionAnswer', { question: c.index, choice: index })));
      button.dataset.choice = String(index);
      button.classList.add('choice');
      group.append(button);
    });
    body.append(group);
    return;
  }
  // The explanation beside the section it comes from (one above the other in portrait), so both and the way on
  // fit a 4:3 kiosk screen.
  // Focusable, so that a long explanation that scrolls can be scrolled by keyboard too.
  const why = element('div', { className: 'comprehension-why', tabIndex: 0, role: 'region', ariaLabel: c.explanationHeading ?? c.question });
  why.append(element('p', { className: 'notice', role: 'status', textContent: c.text }));
  if (c.chosen !== undefined && c.choices[c.chosen] !== undefined) {
    why.append(element('p', { className: 'chosen', dataset: { chosen: String(c.chosen) }, textContent: c.choices[c.chosen] }));
  }
  if (c.explanation) {
    why.append(element('h3', { textContent: c.explanationHeading ?? '' }));
    why.append(element('p', { className: 'explanation', textContent: c.explanation }));
  }
  const help = element('div', { className: 'comprehension-help' }, [why]);
  if (c.sectionHTML) {
    const section = element('div', { className: 'document comprehension-section', tabIndex: 0, role: 'region', ariaLabel: c.sectionTitle ?? c.sectionHeading ?? '' });
    if (c.sectionTitle) section.append(element('h3', { textContent: c.sectionTitle }));
    section.append(renderStudyHTML(c.sectionHTML, loadAsset));
    help.append(element('div', { className: 'comprehension-source' }, [element('h3', { textContent: c.sectionHeading ?? '' }), section]));
  }
  body.append(help);
}

function review(body, view, reply, actions) {
  const r = view.review;
  if (r.text) body.append(element('p', { className: 'summary', textContent: r.text }));
  switch (r.page) {
    case 'document':
      body.append(scrollable('document', view.title, renderStudyHTML(r.html, loadAsset)));
      break;
    case 'signer': {
      const group = element('div', { className: 'choices' });
      for (const choice of r.signerChoices ?? []) {
        const button = actionButton('chooseSigner', choice.text, () =>
          perform(() => call('chooseSigner', { signer: choice.role })));
        button.dataset.signer = choice.role;
        button.classList.add('choice');
        group.append(button);
      }
      body.append(group);
      break;
    }
    case 'name':
      nameForm(body, actions, view, 'setName', {});
      break;
    case 'representative':
      nameForm(body, actions, view, 'setSignerName', { role: 'representative' }, r.relationships ?? [], r.relationshipLabel);
      break;
    case 'witness':
      nameForm(body, actions, view, 'setSignerName', { role: 'witness' });
      break;
    case 'signature':
    case 'witnessSignature':
      signaturePage(body, actions, view, r.role ?? (r.page === 'witnessSignature' ? 'witness' : 'participant'));
      break;
  }
}

function nameForm(body, actions, view, action, extra, relationships = [], relationshipLabel) {
  const r = view.review;
  const form = element('form', { className: 'names', autocomplete: 'off' });
  form.addEventListener('submit', (event) => event.preventDefault());
  const given = element('input', { type: 'text', maxLength: 100, id: 'given' });
  given.dataset.field = 'given';
  const family = element('input', { type: 'text', maxLength: 100, id: 'family' });
  family.dataset.field = 'family';
  form.append(
    element('label', { htmlFor: 'given', textContent: r.givenNameLabel ?? '' }), given,
    element('label', { htmlFor: 'family', textContent: r.familyNameLabel ?? '' }), family);
  let relationship = null;
  if (relationships.length) {
    const group = element('div', { className: 'choices relationships', role: 'group', ariaLabel: relationshipLabel ?? '' });
    if (relationshipLabel) form.append(element('p', { textContent: relationshipLabel }));
    for (const option of relationships) {
      const button = actionButton('setSignerName', option.display, () => {
        relationship = option.code;
        for (const b of group.children) b.setAttribute('aria-pressed', String(b === button));
      });
      button.dataset.relationship = option.code;
      button.setAttribute('aria-pressed', 'false');
      group.append(button);
    }
    form.append(group);
  }
  const send = actionButton(action, label(view, action), () => {
    const params = { given: given.value.trim(), family: family.value.trim(), ...extra };
    if (relationship) params.relationship = relationship;
    perform(() => call(action, params));
  });
  send.dataset.submit = 'true';
  body.append(form, keyboard({ texts: texts(), fields: [given, family] }));
  actions.primary(send);
  state.afterRender = () => given.focus();
}

function signaturePage(body, actions, view, role) {
  const r = view.review ?? view.staff;
  if (r.signatureInstruction) body.append(element('p', { className: 'summary', textContent: r.signatureInstruction }));
  const pad = new SignatureCanvas({ area: r.signingArea, role });
  state.signature = pad;
  const clear = actionButton('clearSignature', label(view, 'clearSignature'), () => {
    pad.clear();
    if (state.padCapturing) call('clearSignature', { role }).catch(showError);
  });
  const submit = actionButton('submitSignature', label(view, 'submitSignature'), () => {
    const params = { role };
    // Strokes drawn on the screen win; otherwise the pad's own capture is what the agent records.
    if (pad.drawnOnScreen || !state.padCapturing) params.strokes = pad.strokesForSubmit();
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
      const form = element('section', { className: 'step step-reviewStep', dataset: { screen: 'reviewStep' } });
      const formActions = new ActionBar();
      nameForm(form, formActions, view, 'setName', {});
      navigation(view, state.current, formActions);
      state.signature = null;
      show(form, formActions);
      if (state.afterRender) { const run = state.afterRender; state.afterRender = null; run(); }
    });
    change.dataset.change = 'name';
    controls.unshift(change);
  }
  body.append(element('div', { className: 'signature-frame' }, [pad.canvas]),
    element('div', { className: 'row' }, controls));
  actions.primary(submit);
  // With a pad, capture there too: its ink is echoed on the canvas as it is drawn.
  state.padCapturing = false;
  if (state.pads.length && view.actions.includes('beginSignature') && !r.hasSignature) {
    state.afterRender = () => call('beginSignature', { role }).then((reply) => {
      state.padCapturing = true;
      const area = (reply?.view?.review ?? reply?.view?.staff)?.signingArea;
      if (area?.source === 'pad') pad.setArea(area);
      else if (reply?.pad?.widthMM && reply?.pad?.heightMM) pad.setArea(reply.pad);
      if (state.current && reply?.view) state.current.view = reply.view;
    }).catch(() => { state.padCapturing = false; });
  }
}

// The person obtaining consent (staffCountersignature): unlock with staff id and PIN, say how the signer's identity
// was verified, countersign. Every word is the agent's (view.staff, view.labels).
function staffStep(body, view, reply, actions) {
  const s = view.staff;
  body.append(element('p', { className: 'summary', textContent: s.text }));
  if (s.page === 'unlock') {
    const form = element('form', { className: 'names staff-unlock', autocomplete: 'off' });
    form.addEventListener('submit', (event) => event.preventDefault());
    const id = element('input', { type: 'text', maxLength: 64, id: 'staff-id' });
    id.dataset.field = 'staffId';
    const pin = element('input', { type: 'password', maxLength: 12, id: 'staff-pin', className: 'passcode' });
    pin.dataset.field = 'pin';
    form.append(element('label', { htmlFor: 'staff-id', textContent: s.staffIdLabel ?? '' }), id,
      element('label', { htmlFor: 'staff-pin', textContent: s.pinLabel ?? '' }), pin);
    // Letters for the id, digits for the PIN: the keyboard of the field being typed in.
    const letters = keyboard({ texts: texts(), fields: [id], names: false });
    const digits = keyboard({ layout: 'digits', texts: texts(), fields: [pin] });
    const showKeyboard = (field) => { letters.hidden = field !== id; digits.hidden = field !== pin; };
    id.addEventListener('focus', () => showKeyboard(id));
    pin.addEventListener('focus', () => showKeyboard(pin));
    const send = actionButton('staffUnlock', label(view, 'staffUnlock'), () => {
      const params = { staffId: id.value.trim(), pin: pin.value };
      pin.value = '';
      perform(() => call('staffUnlock', params));
    });
    body.append(form, letters, digits);
    actions.primary(send);
    showKeyboard(id);
    state.afterRender = () => id.focus();
    return;
  }
  if (s.page === 'attest') {
    let method = s.method ?? null;
    const group = element('div', { className: 'choices identity', role: 'group' });
    const note = element('input', { type: 'text', maxLength: 200, id: 'staff-note' });
    note.dataset.field = 'note';
    const send = actionButton('attestIdentity', s.attestLabel ?? label(view, 'attestIdentity'), () => {
      const params = { method };
      if (note.value.trim()) params.note = note.value.trim();
      perform(() => call('attestIdentity', params));
    });
    const update = () => { send.disabled = method === null; };
    for (const choice of s.methods ?? []) {
      const button = actionButton('attestIdentity', choice.text, () => {
        method = choice.method;
        for (const b of group.children) b.setAttribute('aria-pressed', String(b === button));
        update();
      });
      button.dataset.identity = choice.method;
      button.classList.add('choice');
      button.setAttribute('aria-pressed', String(method === choice.method));
      group.append(button);
    }
    update();
    body.append(group, element('label', { htmlFor: 'staff-note', textContent: s.noteLabel ?? '' }), note,
      keyboard({ texts: texts(), fields: [note], names: false }));
    actions.primary(send);
    return;
  }
  // The countersignature; "Change identity check" goes back to the choice of method.
  signaturePage(body, actions, view, 'personObtainingConsent');
  if (view.actions.includes('attestIdentity')) {
    const change = actionButton('attestIdentity', label(view, 'attestIdentity'), () => {
      const page = element('section', { className: 'step step-staff', dataset: { screen: 'staff' } });
      const pageActions = new ActionBar();
      staffStep(page, { ...view, staff: { ...s, page: 'attest' } }, state.current, pageActions);
      navigation(view, state.current, pageActions);
      state.signature = null;
      show(page, pageActions);
    });
    change.dataset.change = 'identity';
    body.querySelector('.row')?.prepend(change);
  }
}

function passcode(body, view, reply, actions) {
  const p = view.passcode;
  body.append(element('p', { className: 'summary', textContent: p.text, id: 'passcode-text' }));
  const field = element('input', { type: 'password', maxLength: 8, id: 'passcode', className: 'passcode' });
  // The view has no label of its own for the field: the text that asks for the passcode names it.
  field.setAttribute('aria-labelledby', 'passcode-text');
  field.dataset.field = 'passcode';
  const send = actionButton('setPasscode', label(view, 'setPasscode'), () =>
    perform(() => call('setPasscode', { passcode: field.value })));
  body.append(field, keyboard({ layout: 'digits', texts: texts(), fields: [field] }));
  actions.primary(send);
  state.afterRender = () => field.focus();
}

function withdrawal(body, view, reply, actions) {
  const w = view.withdrawal;
  body.append(element('p', { className: 'summary', textContent: w.text }));
  const reason = element('input', { type: 'text', maxLength: 1000, id: 'reason' });
  reason.dataset.field = 'reason';
  const send = actionButton('confirmWithdrawal', label(view, 'confirmWithdrawal'), () => {
    const text = reason.value.trim();
    perform(() => call('confirmWithdrawal', text ? { reason: text } : {}));
  });
  body.append(element('label', { htmlFor: 'reason', textContent: w.reasonLabel }), reason,
    keyboard({ texts: texts(), fields: [reason] }));
  actions.primary(send);
}

function changes(body, view) {
  const c = view.changes;
  body.append(element('p', { className: 'summary', textContent: c.text }));
  for (const [key, titles] of [['added', c.added], ['edited', c.edited], ['removed', c.removed]]) {
    if (!titles?.length) continue;
    const list = element('ul', { className: `changes changes-${key}` });
    for (const title of titles) list.append(element('li', { textContent: title }));
    body.append(list);
  }
}

function end(body, view, reply, actions) {
  const e = view.end ?? {};
  body.append(element('h2', { textContent: e.title ?? view.title ?? '' }));
  if (e.message) body.append(element('p', { className: 'summary', textContent: e.message }));
  if (reply.step === 'completed') copy(body, view, reply);
  if (END_STEPS.has(reply.step)) {
    // The flow is over; its id is kept only so that the end screen can print and follow the copy.
    state.ended = reply.flow ?? state.flow;
    state.flow = null;
    actions.primary(actionButton('start', texts().startAgain, () => showStart())).classList.add('large');
  }
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
        await agent.call(METHODS.printCopy, { flow });
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

/// The view's own navigation (Back, the ways out, Next/Agree/Complete) into the action bar's slots.
function navigation(view, reply, actions) {
  for (const [action, slot] of Object.entries(NAVIGATION)) {
    if (!view.actions.includes(action)) continue;
    if (action === 'next' && reply.step === 'eligibility' && view.eligibility?.status !== 'eligible') continue;
    const button = actionButton(action, label(view, action), () => {
      // A withdrawal is saved too, but "saving your consent" would tell the participant the opposite.
      if (action === 'complete') {
        return perform(() => call('complete', {}), reply.withdraws ? (texts().savingWithdrawal ?? texts().saving) : texts().saving);
      }
      if (action === 'next' || action === 'back') return perform(() => call(action, { step: reply.step }));
      if ((action === 'cancel' || action === 'decline') && reply.step === 'reviewStep' && state.padCapturing) state.padCapturing = false;
      return perform(() => call(action, {}));
    });
    actions.add(slot, button);
  }
}

// MARK: Helpers

// Every offered action has its label in the view (the schema requires it); a symbol stands in only for the two
// answers' marks.
function label(view, key, fallback) {
  return view.labels?.[key] ?? fallback ?? key;
}

function call(action, params) {
  return agent.call(METHODS[action], { flow: state.flow, ...params });
}

/// Runs one request; renders its flow reply, or shows the error in words (StepMismatch re-renders the truth).
async function perform(request, waitingText) {
  if (state.busy) return;
  state.busy = true;
  clearError();
  for (const b of screenButtons()) b.disabled = true;
  if (waitingText) showOverlay(waitingText);
  try {
    const reply = await request();
    if (waitingText) hideOverlay();
    state.busy = false;
    render(reply);
  } catch (error) {
    state.busy = false;
    if (waitingText) hideOverlay();
    if (error instanceof ConnectionLost) return;
    if (error.type === 'StepMismatch' && state.flow) {
      try { return render(await agent.call('flow.get', { flow: state.flow })); } catch { /* shown below */ }
    }
    if (['UnknownFlow', 'FlowExpired', 'FlowFinished'].includes(error.type)) {
      state.flow = null;
      return showStart(errorText(error));
    }
    for (const b of screenButtons()) b.disabled = false;
    if (state.signature && error.type === 'SignatureTooShort') state.signature.clear();
    showError(error);
  }
}

/// The buttons of the screen shown: its content's and its action bar's (not the header's tools).
function screenButtons() { return document.querySelectorAll('#screen button, #actions button'); }

function showError(error) {
  banner.textContent = errorText(error);
  banner.hidden = false;
  // A study this kiosk may not serve: the participant is asked to fetch staff (the banner); staff read the agent's
  // reason (expired, another site, a language not approved…) beneath it, as the agent wrote it.
  if (error?.type === 'StudyNotApproved' && error.message) {
    staffNotice.textContent = error.message;
    staffNotice.hidden = false;
  }
}
function clearError() {
  banner.hidden = true; banner.textContent = '';
  staffNotice.hidden = true; staffNotice.textContent = '';
}

async function loadAsset(name) {
  if (!state.assetCache.has(name)) {
    state.assetCache.set(name, agent.call('study.asset', { name, language: state.language })
      .then((a) => `data:${a.mediaType};base64,${a.data}`).catch(() => null));
  }
  return state.assetCache.get(name);
}

function learnMore(title, html) {
  const t = texts();
  const toggle = (shown) => {
    panel.hidden = !shown;
    open.setAttribute('aria-expanded', String(shown));
  };
  const open = actionButton('learnMore', title || t.learnMore, () => toggle(panel.hidden));
  open.setAttribute('aria-expanded', 'false');
  const close = actionButton('closeLearnMore', t.close, () => { toggle(false); open.focus(); });
  const panel = scrollable('learn-more', title || t.learnMore, renderStudyHTML(html, loadAsset), close);
  panel.hidden = true;
  return element('div', {}, [open, panel]);
}

/// A box of study text that scrolls by itself (the review document, a learn-more text): focusable, so the keyboard
/// scrolls it too, and a named region for a screen reader (its name: the step's or the text's title, the agent's).
function scrollable(className, name, ...children) {
  const box = element('div', { className, tabIndex: 0, role: 'region' }, children);
  if (name) box.setAttribute('aria-label', name);
  return box;
}

function setHeader(studyTitle, stepTitle) {
  header.replaceChildren(element('span', { className: 'study-title', textContent: studyTitle }));
  if (stepTitle) header.append(element('span', { className: 'step-title', textContent: stepTitle }));
}

/// Shows a screen: its content, and its buttons in the action bar (none: the bar is hidden). The header's tools
/// are labelled in the screen's language.
function show(body, actions = new ActionBar()) {
  clearError();
  screen.replaceChildren(body);
  screen.scrollTop = 0;
  actions.showIn(actionBar);
  actionBar.dataset.screen = body.dataset.screen ?? '';
  showDisplayControls(texts());
}

// No text yet (before the agent's texts came): a spinner alone, which needs no language.
function showOverlay(text) {
  overlay.textContent = text ?? '';
  overlay.classList.toggle('spinner', !text);
  overlay.hidden = false;
}
function hideOverlay() { overlay.hidden = true; }

function actionButton(action, text, onClick) {
  const button = element('button', { type: 'button', textContent: text });
  button.dataset.action = action;
  button.addEventListener('click', onClick);
  return button;
}

function element(tag, properties = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(properties)) {
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'role') node.setAttribute('role', value);
    else if (key === 'ariaLabel') node.setAttribute('aria-label', value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
}

// Kiosk ergonomics: no context menu, no drag of images or text, no pinch or double-tap zoom.
for (const type of ['contextmenu', 'dragstart', 'selectstart', 'gesturestart']) {
  document.addEventListener(type, (event) => {
    if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
  });
}
document.addEventListener('touchmove', (event) => { if (event.touches.length > 1) event.preventDefault(); }, { passive: false });

showOverlay();
agent.connect();
