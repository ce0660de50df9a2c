// The staff page: flows in progress, pads and the upload queue, from the same events a staff monitor gets.
// View models never hold names or signatures (only hasName/hasSignature), so nothing here is PHI.
import { END_STEPS } from './constants.js';
import { Agent } from './rpc.js';

const flows = new Map();
let pads = [];
const agent = new Agent({
  client: 'consent-kiosk-staff-page/1', topics: ['flow', 'pad'], capabilities: ['events', 'records'], path: '/staff/rpc',
});
const status = document.getElementById('status');

agent.onState((state, detail) => {
  status.textContent = state === 'ready' ? 'connected' : state;
  if (state !== 'ready') return;
  flows.clear();
  for (const flow of detail?.flows ?? []) flows.set(flow.flow, { ...flow, updated: new Date() });
  pads = detail?.pads ?? [];
  paint();
});
agent.on('flow.changed', (data) => {
  if (END_STEPS.has(data.step)) flows.delete(data.flow);
  else flows.set(data.flow, { ...data, updated: new Date() });
  paint();
});
agent.on('pad.added', (data) => { pads.push(data.pad); paint(); });
agent.on('pad.removed', (data) => { pads = pads.filter((p) => p.id !== data.pad?.id); paint(); });

function cell(text) { const td = document.createElement('td'); td.textContent = text ?? ''; return td; }

function paint() {
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
