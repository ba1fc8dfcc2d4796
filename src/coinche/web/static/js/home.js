// The solo form: the target list shows only the chosen rules' targets (their default
// chosen), and the SA/TA box only for the rules that make it an option.

const form = document.getElementById('solo-form');
if (form) {
  const select = form.querySelector('#target');
  const options = [...select.options].map((o) => o.cloneNode(true));
  const saTa = form.querySelector('#sa-ta-field');
  const radios = [...form.querySelectorAll('input[name="profile"]')];

  const update = (keepValue) => {
    const radio = radios.find((r) => r.checked) || radios[0];
    if (!radio) return;
    const profile = radio.value;
    const previous = select.value;
    const mine = options.filter((o) => o.dataset.profile === profile).map((o) => {
      const copy = o.cloneNode(true);
      copy.textContent = o.dataset.label || o.value;
      copy.selected = false;
      return copy;
    });
    select.replaceChildren(...mine);
    const wanted = keepValue && mine.some((o) => o.value === previous) ? previous : radio.dataset.default;
    select.value = mine.some((o) => o.value === wanted) ? wanted : mine[0]?.value;
    if (saTa) {
      const shown = radio.dataset.saTa === 'yes';
      saTa.hidden = !shown;
      for (const box of saTa.querySelectorAll('input')) box.disabled = !shown;
    }
  };

  for (const r of radios) r.addEventListener('change', () => update(false));
  update(true);
}
