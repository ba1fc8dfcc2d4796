// A page meant for paper (a tournament's result sheet): its print button, shown only
// where a script runs to press it (without one, the browser's own print still works).
for (const button of document.querySelectorAll('[data-print]')) {
  button.hidden = false;
  button.addEventListener('click', () => window.print());
}
