// Radio groups made of buttons (role=radiogroup > role=radio, aria-checked), as ARIA
// describes them: one Tab stop (the checked radio), arrow keys move the choice within the
// group (skipping hidden and disabled radios), Home and End go to its ends. Choosing is a
// click on the radio, so each page wires its radios once, with click handlers.

const usable = (radio) => !radio.hidden && !radio.disabled && radio.offsetParent !== null;

function roving(group) {
  const radios = [...group.querySelectorAll('[role=radio]')];
  const checked = radios.find((r) => r.getAttribute('aria-checked') === 'true' && !r.hidden) || radios.find((r) => !r.hidden);
  for (const radio of radios) radio.tabIndex = radio === checked ? 0 : -1;
}

function keydown(group, event) {
  const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  const radios = [...group.querySelectorAll('[role=radio]')].filter(usable);
  const at = radios.indexOf(document.activeElement);
  if (at < 0 || !radios.length) return;
  let next = null;
  if (event.key in moves) next = (at + moves[event.key] + radios.length) % radios.length;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = radios.length - 1;
  if (next === null) return;
  event.preventDefault();
  radios[next].focus();
  radios[next].click();
}

export function wireRadios(root = document) {
  for (const group of root.querySelectorAll('[role=radiogroup]')) {
    roving(group);
    group.addEventListener('keydown', (event) => keydown(group, event));
    new MutationObserver(() => roving(group)).observe(group, {
      subtree: true, attributes: true, attributeFilter: ['aria-checked', 'hidden'],
    });
  }
}
