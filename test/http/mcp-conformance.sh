#!/usr/bin/env bash
# Opt-in (not part of `vitest run`): runs the official MCP conformance
# suite's generic server scenarios against an HTTP endpoint.
#
#   test/http/mcp-conformance.sh --url http://127.0.0.1:8787/mcp
#   test/http/mcp-conformance.sh --start 'stepgate --http {PORT} my.stepfile.yaml'
#   test/http/mcp-conformance.sh            # the test factory server (test/http/fixtures/serve.ts)
#
# With --start, {PORT} is replaced by a free port, the command runs in the
# background until the scenarios are done, and the URL is
# http://127.0.0.1:{PORT}/mcp. SCENARIOS overrides the scenario list.
# Needs the npm registry (npx fetches node@24 and the conformance package).
set -uo pipefail
cd "$(dirname "$0")/../.."

SCENARIOS=${SCENARIOS:-"server-initialize ping tools-list dns-rebinding-protection"}
CONFORMANCE=${CONFORMANCE:-"@modelcontextprotocol/conformance@0.1.16"}
url=""
start="node --import tsx test/http/fixtures/serve.ts {PORT}"
case "${1:-}" in
  --url) url=${2:?--url needs a URL}; start="" ;;
  --start) start=${2:?--start needs a command} ;;
  "") ;;
  *) echo "usage: $0 [--url URL | --start 'command with {PORT}']" >&2; exit 2 ;;
esac

server_pid=""
cleanup() { if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi; }
trap cleanup EXIT

if [ -n "$start" ]; then
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  url="http://127.0.0.1:${port}/mcp"
  log=$(mktemp)
  bash -c "exec ${start//\{PORT\}/$port}" >"$log" 2>&1 &
  server_pid=$!
  # Ready when anything answers HTTP on the port.
  for _ in $(seq 1 100); do
    curl -s -o /dev/null --max-time 1 "$url" && break
    if ! kill -0 "$server_pid" 2>/dev/null; then echo "server exited:" >&2; cat "$log" >&2; exit 1; fi
    sleep 0.2
  done
fi

failed=0
for scenario in $SCENARIOS; do
  echo "=== $scenario ($url)"
  if npx -y -p node@24 -p "$CONFORMANCE" -c "conformance server --url $url --scenario $scenario"; then
    echo "=== $scenario: PASS"
  else
    echo "=== $scenario: FAIL"
    failed=$((failed + 1))
  fi
done
echo "conformance: $failed scenario(s) failed"
exit $((failed > 0))
