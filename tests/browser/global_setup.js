// Builds the checker page into APP_DIR once, before any worker starts, so the
// workers running spec files side by side share one build.
import { build } from 'vite';
import { APP_DIR, root } from './app_page.js';

export default async function globalSetup() {
  await build({ configFile: `${root}web/app/vite.config.js`, logLevel: 'error', build: { outDir: `${root}${APP_DIR}` } });
}
