#!/usr/bin/env bash
# `npm run supabase -- <command>`: the Supabase CLI version this repo pins, run from the project root.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bash "$root/scripts/supabase-platform/install.sh"
cd "$root"
exec "$root/scripts/supabase-platform/node_modules/.bin/supabase" "$@"
