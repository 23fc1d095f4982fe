/** What a real deployment of the site sets: every value real-looking (the configuration tests start from it). */
export const DEPLOYED_SITE_ENV = {
  NODE_ENV: "production",
  SITE_URL: "https://lakeshoresound.ca",
  SUPABASE_URL: "https://abcdefghijklmnopqrst.supabase.co",
  SUPABASE_ANON_KEY: "sb_publishable_4f9a2c7e1b3d5f8a0c2e4b6d",
  STUDIO_EMAIL: "bookings@lakeshoresound.ca",
  STUDIO_STREET: "2 Lake Shore Blvd W",
  STUDIO_POSTAL_CODE: "M8V 1A1",
  STUDIO_SOCIAL_URL: "https://www.instagram.com/lakeshoresound",
  ENQUIRY_RELAY_SECRET: "q8Zt3vN1xW5yL0pR7sK2mB9cD4fG6hJ1",
};

/** The placeholders of .env.example for the site's variables. */
export const EXAMPLE_SITE_ENV = {
  NODE_ENV: "production",
  SITE_URL: "https://studio.example",
  SUPABASE_URL: "https://your-project-ref.supabase.co",
  SUPABASE_ANON_KEY: "sb_publishable_xxxxxxxxxxxxxxxxxxxx",
  STUDIO_EMAIL: "bookings@studio.example",
  STUDIO_STREET: "change-me: the studio's street address",
  STUDIO_POSTAL_CODE: "change-me",
  STUDIO_SOCIAL_URL: "https://www.instagram.com/yourstudio",
  ENQUIRY_RELAY_SECRET: "change-me-to-a-long-random-string-shared-with-the-function",
};
export const SITE_VARIABLES = Object.keys(EXAMPLE_SITE_ENV).filter((v) => v !== "NODE_ENV");
