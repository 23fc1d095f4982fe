/** The shapes of the configuration the page renders, shared by server and browser code. Read and checked in config.server.ts. */

export type StudioConfig = {
  name: string;
  email: string;
  address: { street: string; locality: string; region: string; postalCode: string; country: string };
  socialUrl: string;
  socialLabel: string;
  siteUrl: string;
};

/** The only configuration the browser receives. */
export type PublicEnv = {
  /** Where supabase-js sends the enquiry: `${supabaseUrl}/functions/v1/send-contact-email`. */
  supabaseUrl: string;
  /** The public anon or publishable key. Never the service-role key. */
  supabaseAnonKey: string;
};
