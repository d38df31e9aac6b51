#!/usr/bin/env bash
# `make run`: runs the most complete job there is. Until the `tg` client exists (it is planned), that is the local
# MTProto server with a real third-party client: tg-server on free loopback ports, Telethon 1.45.0 connecting over
# each TCP transport (auth key, help.getConfig, ping, reconnect with the saved key), then a clean shutdown.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(swift build --show-bin-path)
if [ -x "$bin/tg" ]; then
    exec bash BuildTools/scripts/run-tg.sh
fi
echo "make run: the tg client does not exist yet; running tg-server with Telethon as its client instead."
data=$(mktemp -d)
log="$data/tg-server.log"
"$bin/tg-server" --port 0 --data-dir "$data" >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do grep -q 'ready' "$log" && break; sleep 0.1; done
grep 'ready' "$log"
port=$(grep -o 'dc2=[0-9]*' "$log" | cut -d= -f2)
"$bin/tg-server" --print-public-key --data-dir "$data" >"$data/public.pem"
echo "make run: server public key fingerprint $(tail -1 "$data/public.pem" | cut -d' ' -f2)"
# The client retries a key exchange it rejects, as against Telegram (about 1 in 256; see mtproto_interop.py).
for transport in full abridged intermediate obfuscated; do
    printf 'make run: Telethon over %-12s ' "$transport"
    .venv/bin/python Tests/Fixtures/telethon/mtproto_interop.py --host 127.0.0.1 --port "$port" \
        --pem-file "$data/public.pem" --transport "$transport" --session "$data/$transport" |
        python3 -c 'import json,sys; r=json.load(sys.stdin); f=r["first"]; print("ok: auth key %s, this_dc %d, DC ports %s, ping %s, reconnect reused key: %s" % (f["auth_key_id"], f["this_dc"], f["dc_ports"], "pong" if f["pong_ok"] else "FAILED", f["auth_key_id"] == r["second"]["auth_key_id"]))'
done
kill -TERM $server
wait $server && echo "make run: tg-server stopped cleanly"
