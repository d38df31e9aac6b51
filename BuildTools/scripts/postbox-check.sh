#!/usr/bin/env bash
# The Postbox acceptance steps with the real tool: import messages from JSON lines into a new encrypted account,
# search "pho" (must find "phở"), then open with a wrong key (must exit 2 with one line and leave the file as it was).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product postbox-tool -q
tool="$(swift build --show-bin-path)/postbox-tool"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/messages.jsonl" <<'JSON'
{"peer": 1, "id": 1, "timestamp": 1700000000, "author": 2, "text": "Tối nay ăn phở bò nhé?", "incoming": true}
{"peer": 1, "id": 2, "timestamp": 1700000060, "author": 1, "text": "Ok, 7 giờ ở quán cũ", "entities": [{"type": "bold", "offset": 4, "length": 5}]}
{"peer": 3, "id": 1, "timestamp": 1700000120, "author": 3, "text": "ánh sáng đẹp quá", "media": [{"kind": "photo", "name": "sunset.jpg", "size": 48213, "id": 501}]}
JSON
export POSTBOX_KEY=$(head -c 48 /dev/urandom | od -An -tx1 | tr -d ' \n')
"$tool" import-jsonl --path "$work/account-1" "$work/messages.jsonl"
echo "\$ postbox-tool search pho"
"$tool" search pho --path "$work/account-1" | tee "$work/found"
grep -q "phở" "$work/found" || { echo "postbox-check: search pho did not find phở"; exit 1; }
db="$work/account-1/postbox/db/db_sqlite"
before=$(sha256sum "$db")
set +e
POSTBOX_KEY=$(printf 'ee%.0s' {1..48}) "$tool" stats --path "$work/account-1"
status=$?
set -e
[ "$status" -eq 2 ] || { echo "postbox-check: wrong key gave status $status, expected 2"; exit 1; }
[ "$before" = "$(sha256sum "$db")" ] || { echo "postbox-check: the wrong key changed the file"; exit 1; }
echo "postbox-check: ok (search found phở; wrong key exit status 2; file untouched)"
