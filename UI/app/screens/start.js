// The screens before a flow: the start screen (the study's title and introduction, its languages, Begin), the
// introduction's pages, the record screen, where a consent given earlier is withdrawn or signed again, and the
// resume screen, where a flow paused to think it over goes on.
import { ActionBar } from '../actionbar.js';
import { loadAsset } from '../assets.js';
import { resetDisplay } from '../display.js';
import { actionButton, element, fieldForm, scrollable } from '../dom.js';
import { hideExpiring } from '../expiring.js';
import { setHeader, show } from '../frame.js';
import { renderStudyHTML } from '../html.js';
import { setTool } from '../tools.js';
import { keyboard } from '../keyboard.js';
import { listenBeforeAFlow, reader, stopReadingAloud } from '../listen.js';
import { perform } from '../requests.js';
import { agent, introduction, state, texts } from '../session.js';
import { takeHomeForm } from '../take-home.js';

/// The start screen. A flow's text size and contrast end here (the next participant's screen), except when the
/// participant only switched the language or came back from the record screen (`keepDisplay`).
export function showStart(message, { keepDisplay = false } = {}) {
  state.current = null;
  state.flow = null;
  state.signature = null;
  if (!keepDisplay) resetDisplay();
  stopReadingAloud();
  hideExpiring();
  // A call for staff, and pausing, belong to a flow: neither is on the start screen.
  setTool('askStaff', null);
  setTool('pause', null);
  const t = texts();
  const language = state.languages.find((l) => l.tag === state.language);
  document.documentElement.lang = state.language ?? 'en';
  setHeader(language?.title ?? state.study?.title ?? '');
  state.shown = null;
  listenBeforeAFlow('start');
  const body = element('section', { className: 'start', dataset: { screen: 'start' } });
  if (message) body.append(element('p', { className: 'notice', role: 'status', textContent: message }));
  const intro = introduction();
  const welcome = element('div', { className: 'welcome' });
  if (intro?.logo) {
    // Beside the heading that names the study, the logo says nothing more: no alternative text.
    const logo = element('img', { className: 'logo', alt: '' });
    logo.dataset.asset = intro.logo;
    loadAsset(intro.logo).then((url) => { if (url) logo.src = url; else logo.remove(); });
    welcome.append(logo);
  }
  const heading = element('div', { className: 'welcome-text' },
    [element('h1', { textContent: intro?.title ?? language?.title ?? state.study?.title ?? '' })]);
  if (intro?.subtitle) heading.append(element('p', { className: 'subtitle', textContent: intro.subtitle }));
  welcome.append(heading);
  body.append(welcome);
  if (intro?.pages?.length) {
    const pages = element('nav', { className: 'introduction', ariaLabel: t.introductionPages });
    pages.append(element('h2', { textContent: t.introductionPages }));
    const list = element('div', { className: 'pages' });
    for (const page of intro.pages) {
      const open = actionButton('introductionPage', page.title, () => showIntroductionPage(page, message));
      open.dataset.page = page.id;
      list.append(open);
    }
    pages.append(list);
    body.append(pages);
  }
  // The form to take home, in the language picked: time to think it over, with family, before a flow.
  if (state.study?.printBlank) {
    body.append(takeHomeForm(t.printBlank, () => ({ study: state.study.id, language: state.language })));
  }
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
  // Back to a flow paused to think it over (flow.start with resume).
  actions.exit(actionButton('resume', t.resume, () => showResumeScreen()));
  const start = actionButton('start', t.start, () => perform(() => agent.call('flow.start', { language: state.language })));
  actions.primary(start).classList.add('large');
  show(body, actions);
}

/// One page of the study's introduction (intro.json's HTML items), whole, in a box that scrolls; Back returns to
/// the start screen as it was. Listen reads this page.
function showIntroductionPage(page, message) {
  const t = texts();
  reader.stop();
  listenBeforeAFlow('introduction', { page: page.id });
  const body = element('section', { className: 'start introduction-page', dataset: { screen: 'introduction', page: page.id } });
  body.append(element('h2', { textContent: page.title }),
    scrollable('document introduction-document', page.title, renderStudyHTML(page.html, loadAsset)));
  const actions = new ActionBar();
  const back = actionButton('back', t.back, () => { reader.stop(); showStart(message, { keepDisplay: true }); });
  actions.back(back);
  show(body, actions);
  back.focus();
}

/// The record number (and passcode, when one was set) of a consent given earlier, then a withdrawal, a
/// re-consent, or a change of its answers to the optional parts; the agent answers in the record's language.
function showRecordScreen() {
  const t = texts();
  reader.stop();
  listenBeforeAFlow('record');
  const body = element('section', { className: 'start record', dataset: { screen: 'record' } });
  body.append(element('h2', { textContent: t.existingRecord }),
    element('p', { className: 'summary', textContent: t.existingRecordText }));
  const { form, inputs: [record, code] } = fieldForm('names', [
    { label: t.recordLabel, field: 'record', type: 'text', maxLength: 36, id: 'record' },
    { label: t.recordPasscodeLabel, field: 'passcode', type: 'password', maxLength: 8, id: 'record-passcode', className: 'passcode' },
  ]);
  const start = (params) => perform(() => agent.call('flow.start', params));
  // Withdrawing and changing answers ask for the record's passcode, when one was set.
  const withPasscode = (key) => () => {
    const params = { [key]: record.value.trim() };
    if (code.value) params.passcode = code.value;
    start(params);
  };
  const withdraw = actionButton('withdraw', t.withdraw, withPasscode('withdraw'));
  // An agent older than the change of answers sends no label for it: the way is then not offered.
  const change = t.change ? actionButton('change', t.change, withPasscode('change')) : null;
  const reconsent = actionButton('reconsent', t.reconsent, () => start({ previous: record.value.trim() }));
  const back = actionButton('back', t.back, () => showStart(undefined, { keepDisplay: true }));
  const update = () => {
    withdraw.disabled = reconsent.disabled = record.value.trim() === '';
    if (change) change.disabled = withdraw.disabled;
  };
  record.addEventListener('input', update);
  update();
  body.append(form, keyboard({ layout: 'record', texts: t, fields: [record, code] }));
  // Equal ways on: none is emphasised over the others.
  const actions = new ActionBar();
  actions.back(back).classList.add('quiet');
  actions.add('primary', reconsent, { emphasis: false });
  if (change) actions.add('primary', change, { emphasis: false });
  actions.add('primary', withdraw, { emphasis: false });
  show(body, actions);
  record.focus();
}

/// The code of a paused flow, then that flow where it stopped (or from the beginning with a new version of the
/// study: its first screen says so); the agent answers in the flow's language.
function showResumeScreen() {
  const t = texts();
  reader.stop();
  listenBeforeAFlow('resume');
  const body = element('section', { className: 'start resume', dataset: { screen: 'resume' } });
  body.append(element('h2', { textContent: t.resume }), element('p', { className: 'summary', textContent: t.resumeText }));
  const { form, inputs: [code] } = fieldForm('names', [
    { label: t.resumeCodeLabel, field: 'resume', type: 'text', maxLength: 9, id: 'resume-code', className: 'resume-code-field' },
  ]);
  const goOn = actionButton('resumeGoOn', t.resumeGoOn, () => perform(() => agent.call('flow.start', { resume: code.value.trim() })));
  const back = actionButton('back', t.back, () => showStart(undefined, { keepDisplay: true }));
  const update = () => { goOn.disabled = code.value.replace(/[\s-]/g, '').length !== 8; };
  code.addEventListener('input', update);
  update();
  body.append(form, keyboard({ layout: 'resume', texts: t, fields: [code] }));
  const actions = new ActionBar();
  actions.back(back).classList.add('quiet');
  actions.primary(goOn).classList.add('large');
  show(body, actions);
  code.focus();
}
