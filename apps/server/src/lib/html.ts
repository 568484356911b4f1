/** Escaping for the few server-rendered pages (sign-in popup result, dev providers). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON safe to place inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The one script of the server-rendered pages, served as a file (the Content-Security-Policy allows
 * no inline script): it posts the sign-in result a page carries as JSON data to the opener, and
 * makes `data-close` buttons close the window.
 */
export const PAGE_SCRIPT_PATH = '/kickback-page.js';
export const pageScript = `(function () {
  var data = document.getElementById('kb-popup-result');
  if (data) {
    var payload = JSON.parse(data.textContent || '{}');
    if (window.opener) window.opener.postMessage(payload.message, payload.origin);
    window.close();
  }
  document.querySelectorAll('[data-close]').forEach(function (button) {
    button.addEventListener('click', function () { window.close(); });
  });
})();
`;

/** Data for the page script: JSON in a non-executable script element. */
export function popupResultData(message: unknown, origin: string): string {
  return `<script type="application/json" id="kb-popup-result">${scriptJson({ message, origin })}</script>`;
}

/** A small dark page in the site's look, for server-rendered screens outside the SPA. */
export function page(title: string, body: string, accent = '#53fc18'): string {
  return `<!doctype html>
<html lang="en" data-bs-theme="dark">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  :root { color-scheme: dark; --accent: ${accent}; }
  * { box-sizing: border-box; }
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #0e1013; color: #e8eaed; }
  main { max-width: 460px; margin: 0 auto; padding: 28px 20px; }
  h1 { font-size: 1.35rem; margin: 0 0 4px; }
  p.lead { color: #a4a9b3; margin: 0 0 20px; font-size: .95rem; }
  .card { background: #171a1f; border: 1px solid #262a31; border-radius: 12px; padding: 18px; margin-bottom: 16px; }
  label { display: block; font-size: .85rem; color: #c5c9d0; margin: 10px 0 6px; }
  input { width: 100%; padding: 10px 12px; border-radius: 8px; border: 1px solid #343a44; background: #0e1013; color: #e8eaed; font-size: 1rem; }
  input:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
  button { cursor: pointer; border: 0; border-radius: 8px; padding: 10px 14px; font-size: .95rem; font-weight: 600; }
  .primary { background: var(--accent); color: #0b0d10; width: 100%; margin-top: 16px; }
  .ghost { background: transparent; color: #c5c9d0; border: 1px solid #343a44; }
  .demo { display: flex; align-items: center; gap: 10px; width: 100%; background: #1f232a; color: #e8eaed; margin-top: 8px; text-align: left; }
  .demo img { width: 32px; height: 32px; border-radius: 50%; }
  .badge { margin-left: auto; font-size: .7rem; padding: 2px 8px; border-radius: 999px; background: #2d3a1c; color: var(--accent); }
  .hint { font-size: .8rem; color: #8a909a; margin-top: 6px; }
  .error { color: #ff7b7b; }
  .row { display: flex; gap: 8px; justify-content: space-between; align-items: center; }
</style>
</head>
<body><main>${body}</main><script src="${PAGE_SCRIPT_PATH}" defer></script></body>
</html>`;
}
