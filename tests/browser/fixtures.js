// Playwright's `test` and `expect` for every spec: a test fails when any page
// of it throws an uncaught error (a pageerror), whatever it asserts itself.
import { test as base, expect } from '@playwright/test';

/**
 * Watches every page of `context` for uncaught errors; returns the list they
 * are added to ("url: message"), for a test to assert empty at its end.
 */
export function watchPageErrors(context) {
  const errors = [];
  const watch = (page) => page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  context.pages().forEach(watch);
  context.on('page', watch);
  return errors;
}

/** Playwright's test, its context's pages watched for uncaught errors (a context a test makes itself: watchPageErrors). */
export const test = base.extend({
  context: async ({ context }, use) => {
    const errors = watchPageErrors(context);
    await use(context);
    expect(errors, 'uncaught errors on the page').toEqual([]);
  },
});

export { expect };
