// Study HTML (learn-more texts, the review document) rendered as inert DOM: parsed by DOMParser (which runs
// nothing), then copied element by element through an allow-list, so no script, event attribute, style or
// remote load can reach the page even if the agent's own sanitiser let one through. The page's
// Content-Security-Policy (script-src 'self') is the second wall.
const ELEMENTS = new Set(['p', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'b', 'strong', 'i', 'em', 'u',
  's', 'sub', 'sup', 'small', 'blockquote', 'hr', 'span', 'div', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot',
  'tr', 'th', 'td', 'caption', 'img']);
const ATTRIBUTES = new Set(['alt', 'title', 'colspan', 'rowspan', 'lang', 'dir', 'data-asset', 'data-link']);

export function renderStudyHTML(html, loadAsset) {
  const parsed = new DOMParser().parseFromString(`<!doctype html><body>${html ?? ''}`, 'text/html');
  const fragment = document.createDocumentFragment();
  copyChildren(parsed.body, fragment, loadAsset);
  const container = document.createElement('div');
  container.className = 'study-html';
  container.append(fragment);
  return container;
}

function copyChildren(from, to, loadAsset) {
  for (const node of from.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      to.append(document.createTextNode(node.textContent));
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      const name = node.localName;
      if (name === 'script' || name === 'style' || name === 'template') continue;
      if (!ELEMENTS.has(name)) { copyChildren(node, to, loadAsset); continue; }
      const copy = document.createElement(name);
      for (const attribute of node.attributes) {
        if (ATTRIBUTES.has(attribute.name)) copy.setAttribute(attribute.name, attribute.value);
      }
      if (name === 'img') {
        const asset = node.getAttribute('data-asset');
        if (asset && loadAsset) loadAsset(asset).then((url) => { if (url) copy.src = url; });
      }
      copyChildren(node, copy, loadAsset);
      to.append(copy);
    }
  }
}
