#!/usr/bin/env bash
# `npm run supabase -- <command>`: the Supabase CLI version this repo pins, run from the project root.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/install.sh"
cd "$here/../.."
exec "$here/node_modules/.bin/supabase" "$@"
