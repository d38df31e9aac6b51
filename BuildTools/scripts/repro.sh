#!/usr/bin/env bash
# Reproducible release builds.
#
#   repro.sh build           build every executable twice, from two copies of the tree at two different absolute
#                            paths, and compare SHA-256s; writes .repro/hashes.txt; exits 1 on any difference.
#   repro.sh verify FILE     build once from a fresh copy and compare with a hash list in the format `build` writes.
#
# The recipe (measured on Swift 6.3.1 / Linux; README "Reproducible builds" explains each flag):
#   - one fixed absolute --scratch-path for every build, so output paths baked into objects are the same;
#   - -file-prefix-map and -ffile-prefix-map rewrite the source folder to ".", so debug info and #file strings do
#     not carry the checkout's absolute path;
#   - -no-clang-module-breadcrumbs drops clang module paths from the Swift objects;
#   - --static-swift-stdlib, so the executable does not depend on the toolchain's install path at run time;
#   - SWIFT_DETERMINISTIC_HASHING=1 (SE-0206) for the compiler's and SwiftPM's own Swift code, and, where the kernel
#     allows it, address-space randomization off for the build's processes (setarch -R): LLVM derives its hashing
#     seed from an address in builds with ABI-breaking checks (llvm/llvm-project#96282), so hash-ordered work in the
#     compiler could differ from one run to the next. A CI run once got a different `tg` from two builds of the same
#     tree (same size, different bytes); the object files of each build are now hashed, so a difference names them.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:-build}
out="$repo/.repro"
scratch=/tmp/telegraph-repro-scratch
mkdir -p "$out"

executables() {
    (cd "$repo" && swift package dump-package) | python3 -c '
import json, sys
for p in json.load(sys.stdin)["products"]:
    if "executable" in p["type"]:
        print(p["name"])'
}

# Copies the tracked and untracked-but-not-ignored files of the working tree to $1.
copy_tree() {
    rm -rf "$1"
    mkdir -p "$1"
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
        [ -f "$f" ] && printf '%s\0' "$f"
    done | tar --null -T - -cf -) | tar -xf - -C "$1"
}

# Builds every executable in release mode from the tree at $1 into the fixed scratch path.
build_from() {
    local src=$1
    # Keep the fetched dependencies; drop every build product so nothing is reused across the two builds.
    if [ -d "$scratch" ]; then
        find "$scratch" -mindepth 1 -maxdepth 1 ! -name checkouts ! -name repositories ! -name workspace-state.json \
            -exec rm -rf {} +
    fi
    echo "repro: building release from $src" >&2
    (cd "$src" && SWIFT_DETERMINISTIC_HASHING=1 "${fixed_layout[@]}" swift build -c release --scratch-path "$scratch" --static-swift-stdlib \
        -Xswiftc -file-prefix-map -Xswiftc "$src=." \
        -Xswiftc -Xfrontend -Xswiftc -no-clang-module-breadcrumbs \
        -Xcc -ffile-prefix-map="$src=." >&2)
}

# The SHA-256 of every object file the build made, by path under the scratch folder (sorted).
hash_objects() { # $1 = output file
    (cd "$scratch/release" && find -L . -name '*.o' -type f -print0 | sort -z | xargs -0 -r sha256sum) >"$1"
}

# After two builds differed: the object files that differ between them, by module, for the log.
report_objects() {
    local differing
    differing=$({ diff <(sort -k2 "$out/objects-a.txt") <(sort -k2 "$out/objects-b.txt") || true; } \
        | awk '/^[<>]/ {print $3}' | sort -u)
    if [ -z "$differing" ]; then
        echo "repro: every object file is the same in both builds: the difference came at the link"
    else
        echo "repro: object files that differ between the builds ($(echo "$differing" | wc -l)):"
        echo "$differing" | head -40 | sed 's/^/  /'
    fi
}

hash_into() { # $1 = output file
    local bin="$scratch/release"
    : >"$1"
    for app in "${apps[@]}"; do
        printf '%s  %s  %s\n' "$(sha256sum "$bin/$app" | cut -d' ' -f1)" "$app" "$(stat -c %s "$bin/$app")" >>"$1"
    done
}

# Address-space randomization off for the build, where the kernel lets this process ask (a container's seccomp may
# not); the build works either way.
fixed_layout=()
if setarch "$(uname -m)" -R true 2>/dev/null; then fixed_layout=(setarch "$(uname -m)" -R); fi

mapfile -t apps < <(executables)
[ ${#apps[@]} -gt 0 ] || { echo "repro: no executables in Package.swift"; exit 1; }

case "$mode" in
build)
    a=/tmp/telegraph-repro-a/src
    b=/tmp/telegraph-repro-b/tree/src
    copy_tree "$a"
    copy_tree "$b"
    build_from "$a"
    hash_into "$out/hashes-a.txt"
    hash_objects "$out/objects-a.txt"
    build_from "$b"
    hash_into "$out/hashes-b.txt"
    hash_objects "$out/objects-b.txt"
    rm -rf /tmp/telegraph-repro-a /tmp/telegraph-repro-b
    status=0
    printf '\n| app | size (bytes) | SHA-256 (build A: %s) | SHA-256 (build B: %s) | identical |\n|---|---:|---|---|---|\n' "$a" "$b"
    while read -r ha app size; do
        hb=$(awk -v a="$app" '$2 == a {print $1}' "$out/hashes-b.txt")
        same=yes
        [ "$ha" = "$hb" ] || { same=NO; status=1; }
        printf '| %s | %s | %s | %s | %s |\n' "$app" "$size" "$ha" "$hb" "$same"
    done <"$out/hashes-a.txt"
    cp "$out/hashes-a.txt" "$out/hashes.txt"
    echo
    if [ $status -eq 0 ]; then
        echo "repro: all ${#apps[@]} executables identical; hash list in .repro/hashes.txt (verify with make repro-verify HASHES=.repro/hashes.txt)"
    else
        echo "repro: builds differ"
        report_objects
    fi
    exit $status
    ;;
verify)
    list=${2:?hash list}
    [ -f "$list" ] || { echo "repro: no hash list at $list"; exit 2; }
    list=$(cd "$(dirname "$list")" && pwd)/$(basename "$list")
    c=/tmp/telegraph-repro-verify/src
    copy_tree "$c"
    build_from "$c"
    hash_into "$out/hashes-verify.txt"
    rm -rf /tmp/telegraph-repro-verify
    status=0
    while read -r expected app _; do
        actual=$(awk -v a="$app" '$2 == a {print $1}' "$out/hashes-verify.txt")
        if [ -z "$actual" ]; then echo "repro-verify: $app: not built here"; status=1
        elif [ "$expected" = "$actual" ]; then echo "repro-verify: $app: OK $actual"
        else echo "repro-verify: $app: MISMATCH expected $expected, built $actual"; status=1
        fi
    done <"$list"
    exit $status
    ;;
*)
    echo "usage: repro.sh build | verify HASHES"; exit 2 ;;
esac
