// The staff page: flows in progress, pads and the upload queue, from the same events a staff monitor gets.
// View models never hold names or signatures (only hasName/hasSignature), so nothing here is PHI.
import { END_STEPS } from './constants.js';
import { Agent } from './rpc.js';

const flows = new Map();
// The participants waiting for a member of staff (staff.called until staff.answered or the flow ends), by flow.
const waiting = new Map();
let pads = [];
const agent = new Agent({
  client: 'consent-kiosk-staff-page/1', topics: ['flow', 'pad'], capabilities: ['events', 'records'], path: '/staff/rpc',
});
const status = document.getElementById('status');

agent.onState((state, detail) => {
  status.textContent = state === 'ready' ? 'connected' : state;
  if (state !== 'ready') return;
  flows.clear();
  waiting.clear();
  for (const flow of detail?.flows ?? []) {
    flows.set(flow.flow, { ...flow, updated: new Date() });
    // A call made before this page connected: the flow says since when, and where it stands.
    if (flow.staffCall) {
      waiting.set(flow.flow, { flow: flow.flow, kioskId: flow.staffCall.kioskId, step: flow.step, page: flow.view?.review?.page,
        scene: flow.view?.scene?.index, reason: flow.staffCall.reason, since: new Date(flow.staffCall.at) });
    }
  }
  pads = detail?.pads ?? [];
  paint();
});
agent.on('flow.changed', (data) => {
  if (END_STEPS.has(data.step)) flows.delete(data.flow);
  else flows.set(data.flow, { ...data, updated: new Date() });
  // The call ends with the flow, or when answered (from this page or another).
  if (END_STEPS.has(data.step) || !data.staffCall) waiting.delete(data.flow);
  paint();
});
agent.on('staff.called', (data) => {
  waiting.set(data.flow, { ...data, since: new Date(data.at) });
  chime();
  paint();
});
agent.on('staff.answered', (data) => { waiting.delete(data.flow); paint(); });

// A short two-note chime for a new call (Web Audio: no sound file to serve). A browser that has not been touched
// yet may keep audio suspended; the list shows the call all the same.
let audio = null;
function chime() {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [offset, frequency] of [[0, 880], [0.25, 660]]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.2, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, start + offset + 0.22);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.23);
    }
    document.body.dataset.chimed = String(Number(document.body.dataset.chimed ?? 0) + 1);
  } catch { /* no audio on this machine */ }
}

// How long someone has waited, refreshed every second while anyone waits.
function waited(since) {
  const seconds = Math.max(0, Math.round((Date.now() - since.getTime()) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
setInterval(() => { if (waiting.size) paintWaiting(); }, 1000);

function paintWaiting() {
  const body = document.getElementById('waiting');
  body.replaceChildren();
  for (const call of waiting.values()) {
    const row = document.createElement('tr');
    row.dataset.flow = call.flow;
    const screen = [call.step, call.page, call.scene !== undefined ? `scene ${call.scene + 1}` : null].filter(Boolean).join(' ');
    const answer = document.createElement('button');
    answer.type = 'button';
    answer.dataset.action = 'answerStaff';
    answer.textContent = 'I am here';
    answer.addEventListener('click', async () => {
      answer.disabled = true;
      try { await agent.call('staff.answer', { flow: call.flow }); } catch { answer.disabled = false; }
    });
    const action = document.createElement('td');
    action.append(answer);
    row.append(cell(call.kioskId ?? ''), cell(call.flow), cell(screen),
      cell(call.reason === 'comprehensionStopped' ? 'comprehension check stopped' : 'participant'),
      cell(waited(call.since)), action);
    row.querySelector('td:nth-child(5)').dataset.waited = 'true';
    body.append(row);
  }
  document.getElementById('waiting-table').hidden = waiting.size === 0;
  document.getElementById('waiting-none').hidden = waiting.size > 0;
}
agent.on('pad.added', (data) => { pads.push(data.pad); paint(); });
agent.on('pad.removed', (data) => { pads = pads.filter((p) => p.id !== data.pad?.id); paint(); });

function cell(text) { const td = document.createElement('td'); td.textContent = text ?? ''; return td; }

function paint() {
  paintWaiting();
  const body = document.getElementById('flows');
  body.replaceChildren();
  for (const flow of flows.values()) {
    const review = flow.view?.review ?? {};
    const row = document.createElement('tr');
    row.dataset.flow = flow.flow;
    row.append(cell(flow.flow), cell(flow.study), cell(flow.language), cell(flow.step), cell(review.page ?? ''),
      cell(review.hasName ? 'yes' : 'no'), cell(review.hasSignature ? 'yes' : 'no'), cell(flow.updated.toLocaleTimeString()));
    body.append(row);
  }
  const padBody = document.getElementById('pads');
  padBody.replaceChildren();
  for (const pad of pads) {
    const row = document.createElement('tr');
    row.append(cell(pad.id), cell(pad.name), cell(pad.widthMM ? `${pad.widthMM} × ${pad.heightMM}` : ''), cell(pad.hasPressure ? 'yes' : 'no'));
    padBody.append(row);
  }
}

// A status line of the page (#uploads, #printer, #approvals): `describe(target)` fills it from the agent; what it
// cannot, it says so (its error's type, or no connection).
async function paintStatus(id, describe) {
  const target = document.getElementById(id);
  try {
    await describe(target);
  } catch (error) {
    target.textContent = `not available (${error.type ?? 'no connection'})`;
  }
}

// The upload queue (uploads.status: counts and ages, no record ids), read every 5 s while connected.
const paintUploads = () => paintStatus('uploads', async (target) => {
  const q = await agent.call('uploads.status', {});
  target.dataset.pending = String(q.pending);
  const parts = [`${q.pending} waiting`, `${q.parked} parked`];
  if (q.oldestAgeSeconds !== undefined) parts.push(`oldest ${q.oldestAgeSeconds} s`);
  if (q.halted) parts.push('HALTED: consentctl queue retry or park');
  if (q.lastError) parts.push(`last error ${q.lastError.code}${q.lastError.httpStatus ? ` (HTTP ${q.lastError.httpStatus})` : ''}, ${q.lastError.ageSeconds} s ago`);
  target.textContent = parts.join(' · ');
});
// Why the last copy failed (printer.status lastCopy.reason, as Flow.copy.reason).
const COPY_FAILURES = {
  timedOut: 'CUPS had not printed it within printTimeoutSeconds, and the job was cancelled',
  jobAborted: 'CUPS aborted the job', jobCancelled: 'the job was cancelled in CUPS',
  printerUnavailable: 'the printer was unavailable', printFailed: 'CUPS refused the job', copyNotMade: 'the copy could not be made',
};
// The printer of the participants' copies (printer.status: its state, CUPS's reasons, the last copy's job state and
// what became of it; no record ids, no names). The staff page prints nothing: a copy is printed once, by the
// participant's own screen.
const paintPrinter = () => paintStatus('printer', async (target) => {
  const p = await agent.call('printer.status', {});
  target.dataset.state = p.configured ? p.state : 'none';
  if (!p.configured) { target.textContent = 'no printer configured (printer, --printer)'; return; }
  const parts = [`${p.printer}: ${p.state}`];
  if (p.reason) parts.push(`reason ${p.reason}`);
  if (!p.acceptingJobs) parts.push('not accepting jobs');
  if (p.lastJob) parts.push(`last copy: job ${p.lastJob.job}${p.lastJob.state ? ` ${p.lastJob.state}` : ''}`);
  // What the participant was told of the last copy: not printed means they were asked to see staff.
  target.dataset.copy = p.lastCopy?.state ?? '';
  if (p.lastCopy?.state === 'failed') {
    parts.push(`last copy NOT PRINTED: ${COPY_FAILURES[p.lastCopy.reason] ?? 'failed'}; the participant was asked to see staff`);
  }
  target.textContent = parts.join(' · ');
});
// Each study language's IRB approval (study.get's approval, only when the kiosk checks approvals): a warning ahead of
// its last day (expiring) and why flows are refused (notApproved).
const paintApprovals = () => paintStatus('approvals', async (target) => {
  const { study } = await agent.call('study.get', {});
  const items = [];
  for (const language of study.languages) {
    const { approval } = (await agent.call('study.get', { language: language.tag })).study;
    if (!approval) continue;
    const item = document.createElement('li');
    item.dataset.approval = approval.state;
    item.dataset.language = language.tag;
    const facts = [approval.reference, approval.site ? `site ${approval.site}` : null,
      approval.expires ? `until ${approval.expires}` : null].filter(Boolean).join(', ');
    const state = approval.state === 'expiring' ? `EXPIRES in ${approval.daysLeft} day(s): seal and roll out the renewal`
      : approval.state === 'notApproved' ? `NOT APPROVED: ${approval.message}` : 'approved';
    item.textContent = `${study.id} (${language.tag}): ${state}${facts ? ` (${facts})` : ''}`;
    items.push(item);
  }
  target.replaceChildren(...items);
  if (!items.length) target.textContent = 'approvals are not checked on this kiosk (approvalKeys)';
});
agent.onState((state) => { if (state === 'ready') { paintUploads(); paintPrinter(); paintApprovals(); } });
setInterval(() => { if (agent.state === 'ready') { paintUploads(); paintPrinter(); } }, 5000);
setInterval(() => { if (agent.state === 'ready') paintApprovals(); }, 60000);
agent.connect();
