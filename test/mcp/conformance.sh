#!/usr/bin/env bash
# The official MCP conformance suite and the MCP Inspector CLI against a real `serve` process.
#
# Opt-in (test/mcp/conformance.test.ts runs it when MCP_CONFORMANCE=1 or CI=true): both tools need
# Node 22 and come from the npm registry, installed into a temp dir together with the `node@22`
# package, so nothing is assumed about the machine. Needs a built dist/ (npm run build).
#
# Exit status: 0 all passed, 1 a scenario or the inspector failed, 77 skipped (registry unreachable).
# Only scenarios that apply to a server without the suite's fixture tools are run: the tools-call-*
# ones report false passes here (they look for tools this server does not have), and
# dns-rebinding-protection does not apply to a public, read-only server (docs/mcp.md). The few
# server-stateless checks that need fixture tools are listed in conformance-baseline.yml.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# 0.2 is the first line with the session-lifecycle and 2026-07-28 (server-stateless) scenarios.
CONFORMANCE_VERSION="${MCP_CONFORMANCE_VERSION:-0.2.0-alpha.12}"
INSPECTOR_VERSION="${MCP_INSPECTOR_VERSION:-0.15.0}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/review-data-mcp-conformance.XXXXXX")"
TOOLS="${MCP_CONFORMANCE_TOOLS_DIR:-$WORK/tools}"
SERVER_PID=""
# The server runs on the Node that runs the tests (the project supports Node 20); only the tools need 22.
PROJECT_NODE="${PROJECT_NODE:-$(command -v node)}"

cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "# installing node@22, @modelcontextprotocol/conformance@$CONFORMANCE_VERSION, @modelcontextprotocol/inspector@$INSPECTOR_VERSION into $TOOLS"
mkdir -p "$TOOLS"
if ! timeout 240 npm install --prefix "$TOOLS" --no-audit --no-fund --no-save --loglevel=error \
  node@22 "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >"$WORK/npm.log" 2>&1; then
  echo "SKIP: could not install the conformance tools from the npm registry (offline or registry down):"
  tail -5 "$WORK/npm.log"
  exit 77
fi
export PATH="$TOOLS/node_modules/.bin:$PATH"
echo "# tools run on node $(node --version)"

PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
URL="http://127.0.0.1:$PORT/mcp"
# BASE_URL explicitly: a test runner may export its own (Vite sets BASE_URL=/).
DATABASE_URL="sqlite:$WORK/db.sqlite" PORT="$PORT" HOST=127.0.0.1 BASE_URL="http://127.0.0.1:$PORT" DEMO_ON_EMPTY=true LOG_LEVEL=warn \
  "$PROJECT_NODE" "$ROOT/dist/cli/index.js" serve >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 120); do
  curl -sf -o /dev/null "http://127.0.0.1:$PORT/reviews.json" && break
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 0.5
done
if ! curl -sf -o /dev/null "http://127.0.0.1:$PORT/reviews.json"; then
  echo "FAIL: the server did not start"; cat "$WORK/server.log"; exit 1
fi

failures=0
BASELINE="$ROOT/test/mcp/conformance-baseline.yml"
run_scenario() { # scenario spec-version
  local out status
  out="$(timeout 120 conformance server --url "$URL" --scenario "$1" --spec-version "$2" --expected-failures "$BASELINE" -o "$WORK/results" 2>&1)"
  status=$?
  if [ "$status" -eq 0 ]; then
    echo "PASS conformance $1 @ $2 ($(echo "$out" | grep -Eo 'Passed: [0-9]+/[0-9]+' | tail -1))"
  else
    echo "FAIL conformance $1 @ $2 (exit $status)"; echo "$out" | grep -E 'FAILURE|WARNING|Passed|regression|stale' | tail -15
    failures=$((failures + 1))
  fi
}

# Both eras: the dated 2025 revisions (sessions) and 2026-07-28 (stateless, server/discover).
for version in 2025-06-18 2025-11-25 2026-07-28; do
  listed="$(conformance list --server --spec-version "$version" 2>&1)"
  for scenario in server-initialize ping tools-list resources-list prompts-list server-session-lifecycle server-stateless; do
    if grep -Eq -- "- $scenario( |\$)" <<<"$listed"; then
      run_scenario "$scenario" "$version"
    fi
  done
done

# A real third-party client: the MCP Inspector CLI lists the tools and calls one.
list="$(timeout 60 mcp-inspector --cli "$URL" --transport http --method tools/list 2>&1)"
# Here-strings, not `echo | grep -q`: under pipefail grep -q's early exit can SIGPIPE a long echo.
if grep -q '"search_reviews"' <<<"$list"; then echo "PASS inspector tools/list"; else
  echo "FAIL inspector tools/list"; echo "$list" | tail -10; failures=$((failures + 1)); fi
call="$(timeout 60 mcp-inspector --cli "$URL" --transport http --method tools/call --tool-name search_reviews --tool-arg rating=5 --tool-arg limit=2 2>&1)"
if grep -q '"structuredContent"' <<<"$call" && grep -q '\\"rating\\":5' <<<"$call"; then echo "PASS inspector tools/call search_reviews"; else
  echo "FAIL inspector tools/call"; echo "$call" | tail -10; failures=$((failures + 1)); fi

if [ "$failures" -gt 0 ]; then echo "$failures failed"; exit 1; fi
echo "all passed"
