// Exposes the shardlab package to the Playwright tests (tests/browser/api.spec.js);
// a file, not an inline script, since the pages are served with a CSP that forbids those.
import * as sl from '/web/lib/index.js';

window.sl = sl;
document.getElementById('status').textContent = crossOriginIsolated ? 'isolated' : 'not isolated';
