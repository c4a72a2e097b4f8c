// The reader page of a share link (docs/versions.md "Share links"): reports how long each section is read,
// for the plan's owner. The page has no view id when the reader sent Do Not Track: then nothing is counted.
(() => {
  const main = document.querySelector('main[data-view]');
  if (!main) return;
  const view = main.getAttribute('data-view');
  const url = main.getAttribute('data-read-url');
  const sections = Array.from(document.querySelectorAll('[data-section]'));
  if (!view || !url || sections.length === 0) return;

  /** Milliseconds read per section uuid, not yet reported. */
  const pending = new Map();
  let current = null;
  let since = performance.now();

  // Time counts for the section in view, and only while the page is visible.
  function settle() {
    const now = performance.now();
    if (current !== null && document.visibilityState === 'visible') {
      pending.set(current, (pending.get(current) ?? 0) + (now - since));
    }
    since = now;
  }

  // The section in view is the one covering most of the window.
  function choose() {
    settle();
    let best = null;
    let bestHeight = 0;
    for (const section of sections) {
      const box = section.getBoundingClientRect();
      const height = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
      if (height > bestHeight) {
        best = section;
        bestHeight = height;
      }
    }
    current = best === null ? null : best.getAttribute('data-section');
  }

  function report() {
    settle();
    const read = {};
    let any = false;
    for (const [uuid, ms] of pending) {
      if (ms < 1) continue;
      read[uuid] = Math.round(ms);
      any = true;
    }
    pending.clear();
    if (!any) return;
    const body = new Blob([JSON.stringify({ view, sections: read })], { type: 'application/json' });
    navigator.sendBeacon(url, body);
  }

  choose();
  window.addEventListener('scroll', choose, { passive: true });
  window.addEventListener('resize', choose, { passive: true });
  setInterval(report, 15000);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') report();
    else since = performance.now();
  });
  window.addEventListener('pagehide', report);
})();
