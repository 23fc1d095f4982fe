// The journey on WebKit (WebKitGTK's WebKitWebDriver, our bare browser under Xvfb): journey.ts, webkit.ts.
import { describeJourney } from "./journey";
import { launchWebKit } from "./webkit";

describeJourney("WebKit", launchWebKit, { byDefault: true, alsoWith: false });
