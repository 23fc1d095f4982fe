// One studio for the unit tests that render the studio's details (the contact section, the page's meta).
import type { StudioConfig } from "~/config.types";

export const TEST_STUDIO: StudioConfig = {
  name: "Test Studio",
  email: "hi@test.example",
  address: { street: "1 Main St", locality: "Etobicoke", region: "Ontario", postalCode: "M8V 0A0", country: "CA" },
  socialUrl: "https://social.example/studio",
  socialLabel: "Instagram",
  siteUrl: "https://test.example",
};
