// Exposes the device runtime to the Playwright test (tests/browser/devices.spec.js);
// a file, not an inline script, since the pages are served with a CSP that forbids those.
import { loadDevices } from '/web/lib/runtime/devices.js';

window.shardlab = { loadDevices };
document.getElementById('status').textContent = crossOriginIsolated ? 'isolated' : 'not isolated';
