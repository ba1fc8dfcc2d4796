// The solo form and the friends' table form: choosing other rules puts their default target in the target box (unless
// the visitor typed another one), and each "more options" list names the chosen rules'
// value on its first line ("As the rules say (yes)").
//
// A page restored by the browser's Back button gets its fields back after this script
// ran (the rules radio included, with no change event): the labels are set again on
// `pageshow` (the options opened when one was changed), and nothing here changes a value
// the browser restored.

for (const form of document.querySelectorAll('form.rules-form')) {
  const target = form.querySelector('#target');
  const radios = [...form.querySelectorAll('input[name="profile"]')];
  const defaults = form.querySelectorAll('#more-options select option[value=""]');
  const chosen = () => radios.find((r) => r.checked) || radios[0];
  let shown = chosen();

  const label = () => {
    const radio = chosen();
    if (!radio) return;
    for (const o of defaults) {
      const text = o.dataset[radio.value];
      if (text) o.textContent = text;
    }
  };

  const change = () => {
    const radio = chosen();
    if (!radio) return;
    if (target && (target.value === '' || (shown && target.value === shown.dataset.default))) {
      target.value = radio.dataset.default;
    }
    shown = radio;
    label();
  };

  // Options the browser restored with a value of their own stay in sight.
  const more = form.querySelector('#more-options');
  const reveal = () => {
    if (more && [...more.querySelectorAll('select')].some((s) => s.value !== '')) more.open = true;
  };

  for (const r of radios) r.addEventListener('change', change);
  window.addEventListener('pageshow', () => {
    shown = chosen();
    label();
    reveal();
  });
  label();
}
