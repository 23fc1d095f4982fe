import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { renderDocument } from "./document/render.server";
import { limitServerTimeouts } from "./server-timeouts.server";

limitServerTimeouts();

// Every document (the home page, the 404, the error screen) goes through the document pipeline.
export default function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {
  return renderDocument(request, status, headers, context);
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Cache-Control", "private, no-cache");
  return response;
};
