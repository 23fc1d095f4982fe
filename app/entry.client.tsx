/**
 * The browser's one entry: the booking form's island (decision 030). The page is plain HTML; the
 * page's inline layer (app/enquiry/form-layer.inline.ts) imports this module when the visitor starts on
 * the form. React hydrates the island's container alone, with the props the server rendered it with.
 */
import { hydrateRoot } from "react-dom/client";
import { IslandContent, ISLAND_ID, ISLAND_PROPS_ID, type IslandProps } from "./enquiry/ContactIsland";

const container = document.getElementById(ISLAND_ID);
const props = document.getElementById(ISLAND_PROPS_ID)?.textContent;
if (container && props) hydrateRoot(container, <IslandContent {...(JSON.parse(props) as IslandProps)} />);
