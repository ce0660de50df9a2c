// The participant's tools in the header, beside the titles, on every screen: the display controls (display.js)
// and any other a UI adds (a Listen button). Each tool is one element marked data-tool="<name>"; setting it again
// replaces it in place, so a language switch relabels a tool without moving it (docs/UI-DEVELOPERS.md, "Screens
// that fit").
const tools = document.getElementById('tools');

/// Shows `element` as the tool `name` (replacing the one shown before), or removes it when `element` is null.
export function setTool(name, element) {
  const old = [...tools.children].find((child) => child.dataset.tool === name);
  if (!element) { old?.remove(); return; }
  element.dataset.tool = name;
  if (old) old.replaceWith(element); else tools.append(element);
}
