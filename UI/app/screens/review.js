// The review step's pages: the document, who signs (signer), the names of the participant, a representative or a
// witness (names.js), and the signature pages (signing.js).
import { actionButton, element, scrollable } from '../dom.js';
import { loadAsset } from '../assets.js';
import { renderStudyHTML } from '../html.js';
import { call, perform } from '../requests.js';
import { state } from '../session.js';
import { label } from '../step.js';
import { takeHomeForm } from '../take-home.js';
import { nameForm } from './names.js';
import { signaturePage } from './signing.js';

export function review(body, view, reply, actions) {
  const r = view.review;
  if (r.text) body.append(element('p', { className: 'summary', textContent: r.text }));
  switch (r.page) {
    case 'document':
      body.append(scrollable('document', view.title, renderStudyHTML(r.html, loadAsset)));
      if (view.actions.includes('printBlank')) {
        body.append(takeHomeForm(label(view, 'printBlank'), () => ({ flow: reply.flow ?? state.flow })));
      }
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
      nameForm(body, view, reply, actions);
      break;
    case 'representative':
      nameForm(body, view, reply, actions, 'setSignerName', { role: 'representative' }, r.relationships ?? [], r.relationshipLabel);
      break;
    case 'witness':
      nameForm(body, view, reply, actions, 'setSignerName', { role: 'witness' });
      break;
    case 'signature':
    case 'witnessSignature':
      signaturePage(body, actions, view, r.role ?? (r.page === 'witnessSignature' ? 'witness' : 'participant'));
      break;
  }
}
