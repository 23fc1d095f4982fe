#!/usr/bin/env bash
# Installs what the tests need: the npm dependencies (which include PostgreSQL and Deno), the pinned
# Supabase CLI and the edge runtime's Deno (scripts/supabase-cli), a browser, nginx for the
# CDN test, and Firefox and WebKitGTK for the other engines' journey. Idempotent, and quick when
# everything is there.
#
# Browsers and nginx are what npm cannot always bring. The ecosystem's way comes first;
# the fallbacks are for machines without internet or Docker (docs/decisions/015), each behind a variable:
#   CHROMIUM_PATH   a Chromium to use as it is (else Playwright's own, else Debian's chromium and
#                   chromium-headless-shell: the tests drive the shell, the measurements the browser)
#   NGINX_PATH      an nginx to use (else /usr/sbin/nginx); without one the CDN test is skipped
#   SPAMASSASSIN_PATH   the spamassassin the mail checks run (else the one on PATH)
#   JAVA            a Java 17+ for the Nu HTML Checker (else `java` on PATH, else Debian's default-jre-headless)
#   FIREFOX_PATH, WEBKIT_WEBDRIVER_PATH   the other engines (else Debian's); without one, its journey is skipped
#   SETUP_APT=0     never install from apt (by default apt runs only as root or with passwordless sudo)
set -euo pipefail
cd "$(dirname "$0")/../.."

# The Supabase CLI's folder is a package of its own: its install runs beside npm ci, which leaves a core
# idle while it unpacks (7 s of the set-up).
bash scripts/supabase-cli/install.sh &
cli_install=$!
node scripts/local-stack/install.mjs
wait "$cli_install"

need=()
# Chromium's headless shell, which the tests drive (scripts/local-stack/chromium.mjs), where the distribution
# has it (Debian 12 does; Ubuntu does not): without it the tests drive the whole browser, slower.
shell=()
browser=0
node scripts/local-stack/chromium.mjs >/dev/null 2>&1 || browser=$?
if [ "$browser" -ne 0 ]; then
  # Playwright's own Chromium and its headless shell, where this machine can download them.
  if ! npx --no-install playwright install chromium >/dev/null 2>&1; then
    [ "$browser" -eq 2 ] || need+=(chromium fonts-dejavu-core)
    shell+=(chromium-headless-shell)
  fi
fi
[ -x "${NGINX_PATH:-/usr/sbin/nginx}" ] || need+=(nginx-light)
# The mail checks (tests/mail): SpamAssassin scores every mail. Java runs the Nu HTML Checker (npm vnu-jar) on the
# mails and on every page (tests/e2e/html-validity.test.ts). Without them those checks print a SKIP line.
# Never sa-update: the checks use the packaged rules.
command -v "${SPAMASSASSIN_PATH:-spamassassin}" >/dev/null || need+=(spamassassin)
command -v "${JAVA:-java}" >/dev/null || need+=(default-jre-headless)
# The other engines' journey (tests/engines, docs/decisions/020): Debian's Firefox, WebKitGTK's WebDriver,
# and what our bare WebKitGTK browser runs on. Without them that journey is skipped, saying so.
engines=()
[ -x "${FIREFOX_PATH:-/usr/bin/firefox-esr}" ] || engines+=(firefox-esr)
[ -x "${WEBKIT_WEBDRIVER_PATH:-/usr/bin/WebKitWebDriver}" ] || engines+=(webkit2gtk-driver)
[ -x /usr/bin/Xvfb ] || engines+=(xvfb)
/usr/bin/python3 -c "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('WebKit2', '4.1')" >/dev/null 2>&1 ||
  engines+=(python3-gi gir1.2-gtk-3.0 gir1.2-webkit2-4.1)
[ ${#engines[@]} -eq 0 ] || engines+=(fonts-dejavu-core)
if [ $((${#need[@]} + ${#shell[@]} + ${#engines[@]})) -gt 0 ] && [ "${SETUP_APT:-1}" != 0 ] && command -v apt-get >/dev/null && { [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; }; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
  # One apt at a time: npm test runs the container check (which may install podman) beside this set-up.
  SUDO="$SUDO flock -w 900 /tmp/studio-site-apt.lock"
  $SUDO apt-get update -qq
  if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]} from Debian"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    # The Debian package starts a server of its own on port 80; the tests start their own.
    $SUDO service nginx stop >/dev/null 2>&1 || true
  fi
  if [ ${#shell[@]} -gt 0 ]; then
    echo "setup: installing ${shell[*]} from Debian (the browser tests' Chromium)"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${shell[@]}" >/dev/null ||
      echo "setup: could not install ${shell[*]}: the browser tests drive the whole Chromium, slower"
  fi
  if [ ${#engines[@]} -gt 0 ]; then
    # Not every distribution has these (Ubuntu has no firefox-esr): a failure only skips that journey.
    echo "setup: installing ${engines[*]} from Debian (the Firefox and WebKit journey)"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${engines[@]}" >/dev/null ||
      echo "setup: could not install ${engines[*]}: the journey on the engine(s) missing is skipped"
  fi
fi
# 2: only the whole browser, which the tests can drive too (slower).
node scripts/local-stack/chromium.mjs || [ $? -eq 2 ]
