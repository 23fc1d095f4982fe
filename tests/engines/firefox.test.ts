// The journey on Firefox (Debian's firefox-esr over WebDriver BiDi): journey.ts, firefox.ts.
import { launchFirefox } from "./firefox";
import { describeJourney } from "./journey";

describeJourney("Firefox", launchFirefox, { byDefault: false, alsoWith: true });
