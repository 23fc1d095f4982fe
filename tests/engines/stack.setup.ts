/**
 * The real local stack for the cross-engine journeys (scripts/local-stack/stack.mjs, as `npm run stack`
 * starts it: PostgreSQL, the SMTP catcher, send-contact-email under Deno, the production build), once
 * for both engines, on free ports.
 */
import type { TestProject } from "vitest/node";
import { LOCAL_STUDIO } from "../../scripts/local-stack/environment.mjs";
import { startStack } from "../../scripts/local-stack/stack.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    siteUrl: string;
    mailUrl: string;
    databaseUrl: string;
    studioInbox: string;
  }
}

export default async function setup(project: TestProject) {
  // The function's own fill time (MIN_FILL_MS): browsers driven from outside send faster than people,
  // and a fast Send is an enquiry like any other, confirmed (decision 029).
  const stack = await startStack();
  project.provide("siteUrl", stack.siteUrl);
  project.provide("mailUrl", stack.mail!.apiUrl);
  project.provide("databaseUrl", stack.db!.url);
  project.provide("studioInbox", LOCAL_STUDIO.inbox);
  return () => stack.stop();
}
