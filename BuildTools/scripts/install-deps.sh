#!/usr/bin/env bash
# Installs what Telegraph needs on a Debian machine: the C libraries' -dev packages, the command-line tools the tests
# use as oracles, SQLCipher 4 (from the distribution's own backports suite on Debian 12, whose SQLCipher is 3.4.1),
# and a Python venv with Telethon (and its secret-chat plugin) and kurigram for the interoperability tests.
#
# Idempotent: when everything is present it returns at once (one dpkg-query), and it runs `apt-get update` only when
# something is missing. Needs root, or sudo.
set -euo pipefail

cd "$(dirname "$0")/../.."

# Debian packages: C libraries (one per system module of Package.swift), the fonts TextLayout pins through
# fontconfig so a text lays out the same on every machine (Noto Sans and Noto Sans Arabic from fonts-noto-core, Noto
# Sans Mono from fonts-noto-mono, Noto Color Emoji, Noto Sans CJK), and the tools tests use as oracles (tmux runs the
# interactive tg in a real terminal; util-linux's script gives tg a pty; microsocks is the SOCKS5 server connections
# through a proxy are tested against; ffmpeg makes the test videos and decodes them as VideoBinding's oracle).
packages=(
    pkg-config
    libssl-dev zlib1g-dev libwebp-dev librlottie-dev libopus-dev libogg-dev libpng-dev libturbojpeg0-dev liblmdb-dev libzstd-dev libsqlite3-dev
    libpango1.0-dev libcairo2-dev libutf8proc-dev
    libavformat-dev libavcodec-dev libswscale-dev libavutil-dev
    fonts-noto-core fonts-noto-mono fonts-noto-color-emoji fonts-noto-cjk
    webp opus-tools espeak-ng sox sqlite3 python3-venv time tmux microsocks ffmpeg
    python3-cryptography
)
sqlcipher_min=4.5.6
venv=.venv
telethon=telethon==1.45.0
kurigram=kurigram==2.2.26
tgcrypto=TgCrypto==1.2.5

say() { printf 'install-deps: %s\n' "$*"; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else say "need root or sudo to run: $*"; exit 1
    fi
}

missing=()
while read -r name status; do
    [ "$status" = "installed" ] || missing+=("$name")
done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null || true)
# dpkg-query prints nothing for packages it has never heard of: those are missing too.
for p in "${packages[@]}"; do
    dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -q '^installed$' || {
        [[ " ${missing[*]-} " == *" $p "* ]] || missing+=("$p")
    }
done

sqlcipher_version=$(dpkg-query -W -f='${Version}' libsqlcipher-dev 2>/dev/null || true)
need_sqlcipher=0
if [ -z "$sqlcipher_version" ] || ! dpkg --compare-versions "$sqlcipher_version" ge "$sqlcipher_min"; then
    need_sqlcipher=1
fi
sqlcipher_cli_missing=0
command -v sqlcipher >/dev/null 2>&1 || sqlcipher_cli_missing=1

updated=0
apt_update() {
    if [ "$updated" -eq 0 ]; then
        say "apt-get update"
        as_root apt-get update -qq
        updated=1
    fi
}

if [ ${#missing[@]} -gt 0 ]; then
    apt_update
    say "installing: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# SQLCipher >= 4.5.6 (SQLite 3.44: Postbox's contentless text index needs FTS5's contentless_delete, SQLite 3.43).
# On Debian 12 (bookworm) it comes from bookworm-backports, whose address is derived from the
# Debian sources already configured here (the same mirror, the same signing key), never a hard-coded host.
if [ "$need_sqlcipher" -eq 1 ] || [ "$sqlcipher_cli_missing" -eq 1 ]; then
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    target=()
    if [ "$codename" = "bookworm" ]; then
        backports="${codename}-backports"
        list=/etc/apt/sources.list.d/telegraph-${backports}.sources
        if ! grep -rqs -- "$backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
            uri=""; signed=""
            # deb822 sources: the stanza whose Suites names the release itself.
            for f in /etc/apt/sources.list.d/*.sources; do
                [ -f "$f" ] || continue
                stanza=$(awk -v RS= -v s="$codename" '$0 ~ ("Suites:[^\n]*(^|[ \t])" s "([ \t]|$)") && $0 ~ /Types:[^\n]*deb/ {print; exit}' "$f")
                [ -n "$stanza" ] || continue
                uri=$(printf '%s\n' "$stanza" | awk '/^URIs:/ {print $2; exit}')
                signed=$(printf '%s\n' "$stanza" | awk '/^Signed-By:/ {print $2; exit}')
                [ -n "$uri" ] && break
            done
            # One-line sources.
            if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
                uri=$(awk -v s="$codename" '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i == s) { u = $(i-1); print u; exit } }' /etc/apt/sources.list)
            fi
            if [ -z "$uri" ]; then
                say "cannot find the Debian sources of '$codename' to derive $backports from; add it by hand"
                exit 1
            fi
            say "enabling $backports from the configured Debian mirror ($list)"
            {
                echo "Types: deb"
                echo "URIs: $uri"
                echo "Suites: $backports"
                echo "Components: main"
                [ -n "$signed" ] && echo "Signed-By: $signed"
            } | as_root tee "$list" >/dev/null
            updated=0
        fi
        target=(-t "$backports")
    fi
    apt_update
    say "installing SQLCipher >= $sqlcipher_min: libsqlcipher-dev sqlcipher ${target[*]-}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${target[@]}" \
        libsqlcipher-dev sqlcipher >/dev/null
    sqlcipher_version=$(dpkg-query -W -f='${Version}' libsqlcipher-dev)
    if ! dpkg --compare-versions "$sqlcipher_version" ge "$sqlcipher_min"; then
        say "libsqlcipher-dev $sqlcipher_version is older than $sqlcipher_min"
        exit 1
    fi
fi

# Telethon, the third-party MTProto client the interoperability tests run against.
if [ ! -f "$venv/.telethon-installed" ]; then
    say "creating $venv with $telethon"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "$telethon"
    touch "$venv/.telethon-installed"
fi

# cryptg, Telethon's native AES-IGE: Telethon's fastest setup, the peer of the transfer benchmark.
if [ ! -f "$venv/.cryptg-installed" ]; then
    say "installing cryptg==0.6.0 (Telethon's native AES) into $venv"
    "$venv/bin/pip" install -q "cryptg==0.6.0"
    touch "$venv/.cryptg-installed"
fi

# TDLib's libtdjson (in python-telegram's wheel), the oracle of the text-entity tests: td_execute runs offline.
if [ ! -f "$venv/.python-telegram-installed" ]; then
    say "installing python-telegram==2.0.0 (TDLib's libtdjson) into $venv"
    "$venv/bin/pip" install -q --no-deps "python-telegram==2.0.0"
    touch "$venv/.python-telegram-installed"
fi

# kurigram, a Pyrogram-family client (a fork that follows Telegram's layers; `import pyrogram`), the second MTProto
# client the interoperability tests run against, with TgCrypto, the native AES of its `fast` extra (kurigram's
# documented fast setup is `pip install kurigram[fast]`; without it pyrogram/crypto/aes.py warns and falls back to
# pure-Python pyaes). The extra's uvloop is left out: the test script runs on asyncio's own loop.
if [ ! -f "$venv/.kurigram-installed" ]; then
    say "installing $kurigram and $tgcrypto into $venv"
    "$venv/bin/pip" install -q "$kurigram" "$tgcrypto"
    touch "$venv/.kurigram-installed"
fi

# telethon-secret-chat, a third-party secret-chat plugin for Telethon: the other party of SecretChatTelethonTests, a
# client that did not grow up beside ours (its first message is MTProto 1.0, as a layer < 73 client's would be).
# It needs only Telethon, already here.
if [ ! -f "$venv/.telethon-secret-chat-installed" ]; then
    say "installing telethon-secret-chat==0.2.4 (Telethon's secret-chat plugin) into $venv"
    "$venv/bin/pip" install -q "telethon-secret-chat==0.2.4"
    touch "$venv/.telethon-secret-chat-installed"
fi

# MTProxy peers no one here wrote: alexbers' mtprotoproxy (plain, dd and ee fake-TLS secrets), with pycryptodome
# (its declared dependency: AES in C rather than its slow bundled fallback), which our client goes through; and
# TelethonFakeTLS (Telethon's ee client; Telethon speaks plain and dd itself), which goes through our mtproxy.
if [ ! -f "$venv/.mtprotoproxy-installed" ]; then
    say "installing mtprotoproxy==1.0.6 and TelethonFakeTLS into $venv"
    "$venv/bin/pip" install -q "mtprotoproxy==1.0.6" "TelethonFakeTLS==2022.4.4.16.37.38.728726"
    touch "$venv/.mtprotoproxy-installed"
fi

if [ ${#missing[@]} -eq 0 ] && [ "$need_sqlcipher" -eq 0 ] && [ "$sqlcipher_cli_missing" -eq 0 ]; then
    : # nothing to do; stay quiet so `make` output stays short
else
    say "done (SQLCipher $sqlcipher_version)"
fi
