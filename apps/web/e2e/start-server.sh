#!/usr/bin/env bash
# Starts the real API (serving apps/web/dist) on a fresh throwaway database for one Playwright run.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
data_dir="$(mktemp -d "${TMPDIR:-/tmp}/pos-e2e-XXXXXX")"
cd "$repo_root"
# Where the server's data (and its PostgreSQL socket) is, for e2e/support/database.ts.
data_dir_file="${TMPDIR:-/tmp}/pos-e2e-${E2E_PORT:-8123}.data-dir"
echo "$data_dir" > "$data_dir_file"
export PORT="${E2E_PORT:-8123}" HOST=127.0.0.1 DATA_DIR="$data_dir" SEED_DEMO=true BCRYPT_ROUNDS=4 LOG_LEVEL="${LOG_LEVEL:-warn}"
node --import tsx apps/api/src/server.ts &
server=$!
cleanup() {
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$data_dir" "$data_dir_file"
}
trap cleanup EXIT
trap 'exit 0' INT TERM
wait "$server"
