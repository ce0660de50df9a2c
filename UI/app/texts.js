// The few texts the UI shows outside any flow (no view model exists yet, or the connection is gone) and the
// words for errors. Everything else on screen comes from the agent's view model, in the flow's language.
const TEXTS = {
  en: {
    start: 'Begin', language: 'Language', connecting: 'Connecting to the consent service…',
    reconnecting: 'The consent service is restarting. Please wait…', refused: 'This kiosk is not authorised to use the consent service. Please ask staff.',
    noToken: 'This page needs its kiosk address. Please ask staff.', interrupted: 'The consent was interrupted. Please start again.',
    expired: 'The consent was stopped after a time without activity. Please start again.', saving: 'Saving your consent…',
    learnMore: 'Learn more', close: 'Close', startAgain: 'Start again', shift: 'Shift', space: 'Space', erase: 'Erase',
    notCompleted: 'The consent was not completed. Please start again.',
    errors: {
      SignatureTooShort: 'The signature is too short. Please sign again.', NoCapture: 'Please sign in the box first.',
      MissingName: 'Please enter both names.', InvalidField: 'Please check the text you entered.',
      InvalidPasscode: 'The code must be 4 to 8 digits.', NotEligible: 'Please answer every question first.',
      InvalidAnswers: 'Please answer every question.', PadBusy: 'The signature pad is in use. Please sign on the screen.',
      FlowExpired: 'The consent was stopped after a time without activity.', FlowFinished: 'This consent has ended.',
      UnknownFlow: 'The consent was interrupted. Please start again.', RecordFailed: 'The consent could not be saved. Please tap again.',
      ShuttingDown: 'The consent service is restarting. Please wait…', ConnectionLost: 'The connection was lost. Reconnecting…',
      UnknownLanguage: 'This language is not available.', default: 'Something went wrong. Please try again or ask staff.',
    },
  },
  de: {
    start: 'Beginnen', language: 'Sprache', connecting: 'Verbindung zum Einwilligungsdienst…',
    reconnecting: 'Der Einwilligungsdienst startet neu. Bitte warten…', refused: 'Dieser Kiosk darf den Einwilligungsdienst nicht nutzen. Bitte wenden Sie sich an das Personal.',
    noToken: 'Diese Seite braucht ihre Kiosk-Adresse. Bitte wenden Sie sich an das Personal.', interrupted: 'Die Einwilligung wurde unterbrochen. Bitte beginnen Sie neu.',
    expired: 'Die Einwilligung wurde nach längerer Inaktivität beendet. Bitte beginnen Sie neu.', saving: 'Ihre Einwilligung wird gespeichert…',
    learnMore: 'Mehr erfahren', close: 'Schließen', startAgain: 'Neu beginnen', shift: 'Umschalt', space: 'Leerzeichen', erase: 'Löschen',
    notCompleted: 'Die Einwilligung wurde nicht abgeschlossen. Bitte beginnen Sie neu.',
    errors: {
      SignatureTooShort: 'Die Unterschrift ist zu kurz. Bitte unterschreiben Sie erneut.', NoCapture: 'Bitte unterschreiben Sie zuerst im Feld.',
      MissingName: 'Bitte geben Sie beide Namen ein.', InvalidField: 'Bitte prüfen Sie Ihre Eingabe.',
      InvalidPasscode: 'Der Code muss 4 bis 8 Ziffern haben.', NotEligible: 'Bitte beantworten Sie zuerst alle Fragen.',
      InvalidAnswers: 'Bitte beantworten Sie alle Fragen.', PadBusy: 'Das Unterschriftenpad ist belegt. Bitte unterschreiben Sie auf dem Bildschirm.',
      FlowExpired: 'Die Einwilligung wurde nach längerer Inaktivität beendet.', FlowFinished: 'Diese Einwilligung ist beendet.',
      UnknownFlow: 'Die Einwilligung wurde unterbrochen. Bitte beginnen Sie neu.', RecordFailed: 'Die Einwilligung konnte nicht gespeichert werden. Bitte erneut tippen.',
      ShuttingDown: 'Der Einwilligungsdienst startet neu. Bitte warten…', ConnectionLost: 'Die Verbindung wurde unterbrochen. Neue Verbindung…',
      UnknownLanguage: 'Diese Sprache ist nicht verfügbar.', default: 'Etwas ist schiefgegangen. Bitte erneut versuchen oder das Personal fragen.',
    },
  },
  fr: {
    start: 'Commencer', language: 'Langue', connecting: 'Connexion au service de consentement…',
    reconnecting: 'Le service de consentement redémarre. Veuillez patienter…', refused: 'Ce kiosque n’est pas autorisé à utiliser le service de consentement. Veuillez demander au personnel.',
    noToken: 'Cette page a besoin de son adresse de kiosque. Veuillez demander au personnel.', interrupted: 'Le consentement a été interrompu. Veuillez recommencer.',
    expired: 'Le consentement a été arrêté après une période d’inactivité. Veuillez recommencer.', saving: 'Enregistrement de votre consentement…',
    learnMore: 'En savoir plus', close: 'Fermer', startAgain: 'Recommencer', shift: 'Maj', space: 'Espace', erase: 'Effacer',
    notCompleted: 'Le consentement n’a pas été terminé. Veuillez recommencer.',
    errors: {
      SignatureTooShort: 'La signature est trop courte. Veuillez signer à nouveau.', NoCapture: 'Veuillez d’abord signer dans le cadre.',
      MissingName: 'Veuillez saisir les deux noms.', InvalidField: 'Veuillez vérifier votre saisie.',
      InvalidPasscode: 'Le code doit comporter 4 à 8 chiffres.', NotEligible: 'Veuillez d’abord répondre à toutes les questions.',
      InvalidAnswers: 'Veuillez répondre à toutes les questions.', PadBusy: 'La tablette de signature est occupée. Veuillez signer sur l’écran.',
      FlowExpired: 'Le consentement a été arrêté après une période d’inactivité.', FlowFinished: 'Ce consentement est terminé.',
      UnknownFlow: 'Le consentement a été interrompu. Veuillez recommencer.', RecordFailed: 'Le consentement n’a pas pu être enregistré. Veuillez toucher à nouveau.',
      ShuttingDown: 'Le service de consentement redémarre. Veuillez patienter…', ConnectionLost: 'La connexion a été perdue. Reconnexion…',
      UnknownLanguage: 'Cette langue n’est pas disponible.', default: 'Un problème est survenu. Veuillez réessayer ou demander au personnel.',
    },
  },
};

export function texts(language) {
  const base = (language ?? 'en').toLowerCase().split('-')[0];
  return TEXTS[base] ?? TEXTS.en;
}

export function errorText(language, error) {
  const table = texts(language).errors;
  return table[error?.type] ?? table.default;
}

// A label for an action the view model did not label (an agent older than view labels): the action's own name.
export function fallbackLabel(action) {
  return action.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase());
}
