// omopterm browser: progressive enhancement only. Every page reads and works without this file; it adds copy
// buttons, auto-submitting selects, file import into text areas, and the CSRF header on htmx requests.
(function () {
  'use strict';
  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute('content') : null;
  }
  document.addEventListener('htmx:configRequest', function (event) {
    var token = csrfToken();
    if (token) event.detail.headers['X-CSRF-Token'] = token;
  });
  document.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('button[data-copy]') : null;
    if (!button) return;
    event.preventDefault();
    var text = button.getAttribute('data-copy');
    var done = function () {
      var label = button.textContent;
      button.textContent = 'Copied';
      setTimeout(function () { button.textContent = label; }, 1200);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () {});
  });
  document.addEventListener('change', function (event) {
    var target = event.target;
    if (target.matches && target.matches('select[data-auto-submit]') && target.form) target.form.requestSubmit();
    if (target.matches && target.matches('input[type="file"][data-fill]')) {
      var area = document.getElementById(target.getAttribute('data-fill'));
      var file = target.files && target.files[0];
      if (area && file) file.text().then(function (text) { area.value = text; });
    }
  });
  // Copy buttons need script: show them only when it runs.
  document.addEventListener('DOMContentLoaded', function () {
    document.documentElement.classList.add('js');
  });
})();
// Search page (search-page.tsx): the autocomplete list closes on Escape and when the search is submitted.
(function () {
  'use strict';
  function clearSuggestions() {
    var list = document.getElementById('search-suggestions');
    if (list) list.innerHTML = '';
  }
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Escape') return;
    var inSuggest = event.target.closest && (event.target.closest('#search-suggestions') || event.target.id === 'search-q');
    if (!inSuggest) return;
    clearSuggestions();
    var field = document.getElementById('search-q');
    if (field) field.focus();
  });
  // A suggestion request whose delay runs out after the search was submitted is not sent.
  var typedAt = 0;
  var submittedAt = 0;
  document.addEventListener('input', function (event) {
    if (event.target && event.target.id === 'search-q') typedAt = Date.now();
  });
  document.addEventListener('submit', function (event) {
    if (event.target && event.target.id === 'search-form') {
      submittedAt = Date.now();
      clearSuggestions();
    }
  });
  document.addEventListener('htmx:beforeRequest', function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === 'search-q' && submittedAt >= typedAt) event.preventDefault();
  });
})();
