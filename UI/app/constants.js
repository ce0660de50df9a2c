// What the participant's page (app.js) and the staff page (staff.js) both go by, defined once.

/// The steps a flow ends in: its end screen (the participant's page), and no longer in progress (the staff page).
export const END_STEPS = new Set(['completed', 'declined', 'cancelled', 'expired', 'ineligible', 'paused']);

/// The errors that mean the flow on screen is gone (the agent no longer has it, or it ended): the page starts over.
export const FLOW_GONE = new Set(['UnknownFlow', 'FlowExpired', 'FlowFinished']);
