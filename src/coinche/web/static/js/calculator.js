// The score calculator: on every change the form's fields go to the server's calculator
// (the engine, in the page's language) and its answer replaces the result and the field
// messages at once. No rule lives here: the server also says which contracts, options and
// fields the chosen rules have. Without this script the form is a plain GET form.

const form = document.getElementById('calc-form');
if (form) {
  const api = form.dataset.api;
  const lang = document.documentElement.lang;
  const $ = (id) => document.getElementById(id);
  const profile = $('profile');
  const target = $('target');
  const targetGroups = [...target.querySelectorAll('optgroup')].map((g) => g.cloneNode(true));
  const targetDefault = target.options[0];
  const bid = $('bid');
  const points = $('points');
  const melds = $('melds-group');
  const noMelds = $('no-melds');
  let submitted = false;
  let timer = 0;
  let sequence = 0;
  let controller = null;

  // The target list shows only the chosen rules' targets.
  const showTargets = (keep) => {
    const previous = target.value;
    const group = targetGroups.find((g) => g.dataset.profile === profile.value);
    const options = group ? [...group.cloneNode(true).children] : [];
    targetDefault.textContent = target.dataset.defaultLabel.replace('§', group ? group.dataset.default : '');
    target.replaceChildren(targetDefault, ...options);
    target.value = keep && options.some((o) => o.value === previous) ? previous : '';
  };

  const setOptionDefaults = (defaults) => {
    for (const select of form.querySelectorAll('select[data-option]')) {
      const value = defaults[select.dataset.option];
      const chosen = [...select.options].find((o) => o.value === value);
      if (chosen) select.options[0].textContent = select.dataset.defaultLabel.replace('§', chosen.textContent);
    }
  };

  // The contracts and fields the rules have (as the server read them).
  const applyRules = (rules) => {
    const previous = bid.value;
    const choices = rules.bid_values.map((v) => [String(v), String(v)]);
    choices.push(['capot', bid.dataset.capotLabel]);
    if (rules.generale) choices.push(['generale', bid.dataset.generaleLabel.replace('§', rules.generale_value)]);
    // A value these rules refuse stays chosen: the server's message next to it says why.
    if (!choices.some(([v]) => v === previous)) choices.push([previous, previous]);
    bid.replaceChildren(...choices.map(([v, label]) => new Option(label, v, false, v === previous)));
    for (const chip of form.querySelectorAll('[data-trump="SA"], [data-trump="TA"]')) {
      chip.hidden = !rules.sa_ta && !chip.querySelector('input').checked;
    }
    const showMelds = rules.melds;
    melds.hidden = !showMelds;
    melds.disabled = !showMelds;
    noMelds.hidden = showMelds;
    $('surcoinche-x').textContent = rules.surcoinche;
    setOptionDefaults(rules.defaults);
  };

  const showErrors = (errors) => {
    for (const slot of form.querySelectorAll('[data-slot]')) {
      const text = errors[slot.dataset.slot] || '';
      slot.textContent = text;
      slot.hidden = !text;
    }
    for (const control of form.querySelectorAll('[aria-describedby]')) {
      const ids = control.getAttribute('aria-describedby').split(/\s+/);
      const bad = ids.some((id) => id.startsWith('err-') && errors[id.slice(4)]);
      if (bad) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    }
  };

  const showResult = (doc) => {
    const said = $('calc-summary');
    said.textContent = doc.summary;
    said.classList.toggle('visually-hidden', doc.ok);
    $('calc-empty').hidden = Boolean(doc.summary);
    $('calc-score').hidden = !doc.ok;
    if (!doc.ok) return;
    const verdict = $('calc-verdict');
    verdict.textContent = doc.verdict;
    verdict.className = `verdict ${doc.made ? 'made' : 'failed'}`;
    $('score-taker').textContent = doc.taker;
    $('score-defense').textContent = doc.defense;
    $('calc-lines').replaceChildren(
      ...doc.lines.map((line) => {
        const li = document.createElement('li');
        li.textContent = line;
        return li;
      }),
    );
  };

  const calculate = async () => {
    clearTimeout(timer);
    const fields = new URLSearchParams(new FormData(form));
    const query = new URLSearchParams(fields);
    query.set('lang', lang);
    const mine = ++sequence;
    if (controller) controller.abort();
    controller = new AbortController();
    let doc;
    try {
      const answer = await fetch(`${api}?${query}`, { signal: controller.signal, headers: { Accept: 'application/json' } });
      doc = await answer.json();
    } catch (error) {
      if (error.name !== 'AbortError') console.warn('calculator:', error);
      return;
    }
    if (mine !== sequence) return;
    applyRules(doc.rules);
    // A points field not filled in yet is no mistake until the form is sent.
    const quiet = !submitted && !points.value.trim();
    if (quiet) {
      delete doc.errors.points;
      if (Object.keys(doc.errors).length === 0) doc.summary = '';
    }
    showErrors(doc.errors);
    showResult(doc);
    if (!quiet) {
      // The address of this result, to share: the fields that say something.
      const shared = new URLSearchParams([...fields].filter(([, value]) => value !== ''));
      history.replaceState(null, '', `${form.getAttribute('action')}?${shared}`);
    }
  };

  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(calculate, 120);
  };

  profile.addEventListener('change', () => showTargets(false));
  form.addEventListener('input', later);
  form.addEventListener('change', later);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submitted = true;
    calculate();
  });
  showTargets(true);
  form.dataset.ready = 'yes';
}
