// The error policy: an agent error in the participant's words (the agent's texts.errors, by the error's type), shown
// in the banner over the screen; for staff, the agent's own reason beneath it where only staff can act.
import { texts } from './session.js';

const banner = document.getElementById('banner');
const staffNotice = document.getElementById('staff-notice');

/// The words for `error` in the language shown: its type's, else InternalError's, else the agent's message.
export function errorText(error) {
  const t = texts();
  return t?.errors?.[error?.type] ?? t?.errors?.InternalError ?? error?.message ?? '';
}

export function showError(error) {
  banner.textContent = errorText(error);
  banner.hidden = false;
  // A study this kiosk may not serve: the participant is asked to fetch staff (the banner); staff read the agent's
  // reason (expired, another site, a language not approved…) beneath it, as the agent wrote it.
  if (error?.type === 'StudyNotApproved' && error.message) {
    staffNotice.textContent = error.message;
    staffNotice.hidden = false;
  }
}

export function clearError() {
  banner.hidden = true; banner.textContent = '';
  staffNotice.hidden = true; staffNotice.textContent = '';
}
