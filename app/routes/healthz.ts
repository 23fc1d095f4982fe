// Liveness for the container HEALTHCHECK and load balancers: the server answers and is configured.
import { config } from "~/config.server";

export function loader() {
  config();
  return new Response("ok\n", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
}
