#!/usr/bin/env bash
# `make run`'s conversation: tg-server on free loopback ports and the `tg` client as three people's processes, every
# step printed as it happens. Alice (a DC 1 number: the client follows PHONE_MIGRATE_1) and Bob (DC 2) sign up with
# test numbers, take usernames and find each other by them, Alice takes a profile photo; Bob's second device (its own --root) signs in and watches;
# Alice sends markdown, Bob replies and reacts ❤ to it, Alice sends an album of three photos made on the spot, a WebP sticker and an
# animated .tgs sticker from the server's set, Bob a voice note spoken by espeak-ng; Alice searches "pho" and finds
# "phở"; the second device must have seen every message; Bob reads the chat and Alice's messages turn ✓✓; then, while
# Bob's client runs (it accepts secret chats as Telegram's apps do), Alice types (Bob's client shows "typing…"), opens
# a secret chat with him and writes in it, Bob's side holds the message, and both key visualizations are printed side
# by side and must match; Alice creates a public channel, posts in it and forwards Bob's reply there, Bob joins it by
# its username and reads the post with its views and the forward naming him; both sides are drawn in the terminal and
# as PNGs.
#
# Usage: run-tg.sh [--dir DIR]
#   --dir DIR   where the server's data, the three accounts and the PNGs stay (default .build/run); the
#               server/, alice/, bob/, bob2/ folders in it are replaced. Everything else (logs, photos, the WAV)
#               is temporary. Continue with `tg --root DIR/alice …` once the server runs again (printed at the end).
# Environment: TG_BIN — the folder with tg and tg-server (default: `swift build --show-bin-path`).
# Exit 0 when every step did its job; otherwise the failing step's error and exit 1. No process is left behind.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
dir=.build/run
while [ $# -gt 0 ]; do
    case "$1" in
        --dir) dir=${2:?--dir needs a folder}; shift 2 ;;
        -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
        *) echo "run-tg.sh: error: unknown argument '$1' — see --help" >&2; exit 2 ;;
    esac
done
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bin=${TG_BIN:-$(swift build --show-bin-path)}
for tool in tg tg-server; do
    [ -x "$bin/$tool" ] || { echo "run-tg.sh: error: no $bin/$tool — build it: make $tool" >&2; exit 1; }
done
python=/usr/bin/python3
[ -x "$python" ] || python=python3
helper="$repo/BuildTools/scripts/run-tg-helper.py"

started=$EPOCHREALTIME
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tg-run.XXXXXX")
server=""
watcher=""
cleanup() {
    local status=$?
    if [ -n "$watcher" ] && kill -0 "$watcher" 2>/dev/null; then kill -TERM "$watcher" 2>/dev/null || true; fi
    [ -n "$watcher" ] && { wait "$watcher" 2>/dev/null || true; }
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -TERM "$server" 2>/dev/null || true; fi
    [ -n "$server" ] && { wait "$server" 2>/dev/null || true; }
    rm -rf "$tmp"
    if [ "$status" -ne 0 ]; then echo "make run: failed (exit $status)" >&2; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# [ 3.2s] what happened
step() {
    local now=$EPOCHREALTIME
    printf '[%5.1fs] %s\n' "$(awk "BEGIN { print ${now/,/.} - ${started/,/.} }")" "$*"
}
fail() {
    echo "make run: error: $*" >&2
    if [ -f "$tmp/server.log" ]; then echo "tg-server's last log lines:" >&2; tail -5 "$tmp/server.log" >&2; fi
    exit 1
}
# tg as one person: tg_as alice send @bob_demo "hi" --json
tg_as() {
    local who=$1; shift
    "$bin/tg" --root "$dir/$who" --timeout 20 "$@" 2>"$tmp/tg.err" || fail "tg --root $dir/$who $* — $(cat "$tmp/tg.err")"
}
sent() { "$python" "$helper" sent; }
# tg as one person, its output kept in $out: a failure stops the run with tg's error before anything reads it.
tg_out() { out=$(tg_as "$@"); }
# A path as the user can type it from the repository: relative when inside it.
show() { case "$1" in "$repo"/*) echo "${1#"$repo"/}" ;; *) echo "$1" ;; esac; }

rm -rf "$dir/server" "$dir/alice" "$dir/bob" "$dir/bob2" "$dir/alice.png" "$dir/bob.png"

# 1. The server: free ports, its data under DIR/server.
"$bin/tg-server" --port 0 --data-dir "$dir/server" >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 1 300); do grep -q 'ready' "$tmp/server.log" && break; kill -0 $server 2>/dev/null || break; sleep 0.1; done
ready=$(grep -m1 'ready' "$tmp/server.log") || fail "tg-server did not start within 30 s"
address="127.0.0.1:$(echo "$ready" | grep -o 'dc[0-9]*=[0-9]*' | sed 's/^dc//' | paste -sd, -)"
"$bin/tg-server" --print-public-key --data-dir "$dir/server" >"$dir/server/public.pem"
step "$ready (data in $(show "$dir/server"))"

# 2. Sign-ups through the real path: auth.sendCode (PHONE_MIGRATE_1 for Alice's DC 1 number), code, sign-up.
tg_out alice login --account alice --phone 9996610001 --code 11111 --first-name Alice \
    --server "$address" --server-key "$dir/server/public.pem" --json
alice_id=$(echo "$out" | "$python" "$helper" field userId)
step "alice signed up: +9996610001 (DC 1, via PHONE_MIGRATE_1), user:$alice_id"
tg_out bob login --account bob --phone 9996620002 --code 22222 --first-name Bob \
    --server "$address" --server-key "$dir/server/public.pem" --json
bob_id=$(echo "$out" | "$python" "$helper" field userId)
step "bob signed up: +9996620002 (DC 2), user:$bob_id"
alice_name=$(tg_as alice username alice_demo)
bob_name=$(tg_as bob username bob_demo)
step "alice takes $alice_name; bob takes $bob_name"
# Alice's profile photo (photos.uploadProfilePhoto): Bob's drawing of the chat shows it in its header.
"$python" "$helper" photos "$tmp"
tg_out alice profile-photo "$tmp/sunset.png"
step "alice: $out"

# 3. Bob's second device: the same number signs in under its own root and watches every chat.
tg_as bob2 login --account bob --phone 9996620002 --code 22222 --server "$address" \
    --server-key "$dir/server/public.pem" >/dev/null
touch "$tmp/bob2.jsonl"
"$bin/tg" --root "$dir/bob2" watch --json >"$tmp/bob2.jsonl" 2>"$tmp/bob2.err" &
watcher=$!
for _ in $(seq 1 300); do grep -q watching "$tmp/bob2.jsonl" && break; kill -0 $watcher 2>/dev/null || break; sleep 0.1; done
grep -q watching "$tmp/bob2.jsonl" || fail "bob's second device did not start watching: $(cat "$tmp/bob2.err")"
step "bob's second device signed in (same account, its own folder $(show "$dir/bob2")) and watches"

# 4. The conversation; each send waits until the server has the message.
hello=$(tg_as alice send @bob_demo '**Hi Bob!** Dinner tonight? The menu is [here](https://example.com/menu) — `8 pm`, __by the lake__' --json)
hello_id=$(echo "$hello" | "$python" "$helper" field id)
step "alice → @bob_demo (found by username: $(echo "$hello" | "$python" "$helper" field chatName)): $(echo "$hello" | sent)"
tg_out bob send @alice_demo 'Sure! ~~7~~ **8 pm** works' --reply "$hello_id" --json
line=$(echo "$out" | sent)
step "bob → @alice_demo (found by username): $line"
# A reaction (messages.sendReaction): Alice's client gets updateMessageReactions; both drawings show ❤ 1 under it.
tg_out bob react @alice_demo "$hello_id" '❤'
step "bob reacts to alice's message $hello_id: $out"
tg_out alice send @bob_demo 'Hồ Hoàn Kiếm at dusk' --album "$tmp/sunset.png" "$tmp/hills.png" "$tmp/sea.png" --json
line=$(echo "$out" | sent)
step "alice → bob: $line, made on the spot"
tg_out alice send @bob_demo --sticker telegraph/4 --json
line=$(echo "$out" | sent)
step "alice → bob: $line"
tg_out alice send @bob_demo --sticker telegraph/1 --json
line=$(echo "$out" | sent)
step "alice → bob: $line"
espeak-ng -v vi -w "$tmp/voice.wav" "Tối nay ăn phở không? Quán phở gần hồ ngon lắm." 2>/dev/null || fail "espeak-ng could not speak — run make deps"
tg_out bob send @alice_demo 'Tối nay ăn **phở** không?' --voice "$tmp/voice.wav" --json
line=$(echo "$out" | sent)
step "bob → alice: $line, spoken by espeak-ng"

# 5. Search: Postbox's full-text index ignores diacritics.
tg_out alice search pho --json
found=$(echo "$out" | "$python" "$helper" found)
step "alice searches \"pho\":"
echo "$found"
[[ "$found" == *phở* ]] || fail "searching \"pho\" did not find \"phở\""

# 6. The second device saw all 8 messages (Alice's 6, Bob's 2 sent from his other device).
for _ in $(seq 1 300); do
    [ "$("$python" "$helper" seen "$tmp/bob2.jsonl")" -ge 8 ] && break
    kill -0 $watcher 2>/dev/null || break
    sleep 0.1
done
kill -INT $watcher 2>/dev/null || true
wait $watcher || fail "bob's second device's watch ended badly: $(cat "$tmp/bob2.err")"
watcher=""
seen=$("$python" "$helper" seen "$tmp/bob2.jsonl")
step "bob's second device saw $seen new messages as they happened:"
"$python" "$helper" watched "$tmp/bob2.jsonl"
[ "$seen" -ge 8 ] || fail "bob's second device saw $seen of the 8 messages within 30 s"

# 6b. Bob reads the chat (messages.readHistory): Alice's client gets updateReadHistoryOutbox, her messages ✓✓.
tg_as bob read @alice_demo >/dev/null
all_read=""
for _ in $(seq 1 50); do
    tg_out alice history @bob_demo --json
    if read_line=$(echo "$out" | "$python" "$helper" read); then all_read=yes; break; fi
    sleep 0.2
done
[ -n "$all_read" ] || fail "alice's messages were not all marked read after bob read the chat: $read_line"
step "bob reads the chat: alice's messages are ✓✓ (read by bob: $read_line)"

# 7. A secret chat (end-to-end encrypted): Bob's client runs and accepts it; Alice's message reaches his side; both
#    key visualizations are the same. First Alice types: Bob's running client shows it (updateUserTyping).
touch "$tmp/bob.watch"
"$bin/tg" --root "$dir/bob" watch >"$tmp/bob.watch" 2>"$tmp/bob.err" &
watcher=$!
for _ in $(seq 1 300); do grep -q watching "$tmp/bob.watch" && break; kill -0 $watcher 2>/dev/null || break; sleep 0.1; done
grep -q watching "$tmp/bob.watch" || fail "bob's client did not start watching: $(cat "$tmp/bob.err")"
tg_as alice typing @bob_demo >/dev/null
for _ in $(seq 1 100); do grep -q 'is typing' "$tmp/bob.watch" && break; kill -0 $watcher 2>/dev/null || break; sleep 0.1; done
typing=$(grep -m1 'is typing' "$tmp/bob.watch") || fail "bob's client did not see alice typing: $(cat "$tmp/bob.err")"
step "alice types to @bob_demo (messages.setTyping); bob's client shows: $typing"
tg_out alice secret @bob_demo --json
secret=$(echo "$out" | "$python" "$helper" field chat)
step "alice starts a secret chat with @bob_demo: $secret, accepted by bob's running client"
kill -INT $watcher 2>/dev/null || true
wait $watcher || fail "bob's watch ended badly: $(cat "$tmp/bob.err")"
watcher=""
tg_out alice send "$secret" 'The table is under the lantern 🏮' --json
step "alice → bob in $secret: $(echo "$out" | sent)"
tg_out bob history "$secret" --json
line=$(echo "$out" | "$python" "$helper" holds "under the lantern") || fail "bob's side of $secret lacks alice's message"
step "bob's side of $secret received it: $line"
tg_as alice secret-key "$secret" --json >"$tmp/alice.key"
tg_as bob secret-key "$secret" --json >"$tmp/bob.key"
step "the key visualizations of $secret (tg secret-key), alice's and bob's:"
"$python" "$helper" keys "$tmp/alice.key" "$tmp/bob.key" || fail "the key visualizations differ: someone is in the middle"

# 8. A public channel: Alice creates it with a username and posts; Bob joins by the username and reads the post with
#    its views.
tg_out alice create-channel "Alice's Hanoi notes" --about "Where to eat" --username alice_notes --json
channel=$(echo "$out" | "$python" "$helper" field chat)
step "alice creates the channel $channel, public as @alice_notes"
tg_out alice send "$channel" '**Phở** at 8, by the lake 🍜' --json
step "alice posts in $channel: $(echo "$out" | sent)"
tg_out alice history @bob_demo --json
reply_id=$(echo "$out" | "$python" "$helper" idof "works") || fail "alice's chat lacks bob's reply"
tg_out alice forward @bob_demo "$reply_id" "$channel" --json
step "alice forwards bob's reply $reply_id into $channel (messages.forwardMessages): $(echo "$out" | sent)"
tg_out bob join @alice_notes --json
step "bob joins @alice_notes by its username"
tg_out bob history "$channel" --json
line=$(echo "$out" | "$python" "$helper" holds "by the lake") || fail "bob does not see alice's post in $channel"
views=$(echo "$out" | "$python" "$helper" views "by the lake")
step "bob reads it: $line (👁 $views)"
line=$(echo "$out" | "$python" "$helper" forwarded "works") || fail "bob does not see the forward naming him in $channel"
step "and the forward: $line"
step "the channel as bob sees it:"
tg_as bob render "$channel" --ansi --width "${COLUMNS:-80}"

# 9. Both sides drawn: in the terminal, and as PNG phone screens (360 points wide at 2×: 720 px) tall enough for
#    the whole chat.
columns=${COLUMNS:-80}
step "alice's chat with bob:"
tg_as alice render @bob_demo --ansi --width "$columns"
step "bob's chat with alice:"
tg_as bob render @alice_demo --ansi --width "$columns"
tg_as alice render @bob_demo --png "$dir/alice.png" --fit --scale 2 >/dev/null
tg_as bob render @alice_demo --png "$dir/bob.png" --fit --scale 2 >/dev/null
step "PNGs: $(show "$dir/alice.png") $(show "$dir/bob.png")"

kill -TERM $server
wait $server || fail "tg-server did not stop cleanly"
server=""
step "tg-server stopped cleanly; done"
tg=$(show "$bin/tg")
cat <<EOF

Continue with the same accounts (their data stays in $(show "$dir")): start the server on its data again, move
each account to its address, then use tg as alice or bob:
  $(show "$bin/tg-server") --data-dir $(show "$dir/server") --port 10443 &
  $tg --root $(show "$dir/alice") login --account alice --server 127.0.0.1:10443
  $tg --root $(show "$dir/bob") login --account bob --server 127.0.0.1:10443
  $tg --root $(show "$dir/alice") send @bob_demo "See you at 8 🍜"
  $tg --root $(show "$dir/bob") watch
EOF
