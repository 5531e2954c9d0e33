// Playwright's `test` and `expect` for every spec: a test fails when any page
// of it throws an uncaught error (a pageerror), whatever it asserts itself.
import { test as base, expect } from '@playwright/test';

/** Playwright's test, its context's pages watched for uncaught errors. */
export const test = base.extend({
  context: async ({ context }, use) => {
    const errors = [];
    const watch = (page) => page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    context.pages().forEach(watch);
    context.on('page', watch);
    await use(context);
    expect(errors, 'uncaught errors on the page').toEqual([]);
  },
});

export { expect };
