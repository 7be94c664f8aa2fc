#!/usr/bin/env bash
# run-readme.sh — README's commands work as pasted, and its examples do what
# README says: every `build/boardpress ...` line of its sh blocks runs (on a
# copy of the site; serve until it serves the new page), every `make TARGET`
# it names is a target, the hand-written board and page (new files, beside
# the real site's own) build, the page shows the board, the misspelling of
# step 3 stops the build with exactly the error README quotes and leaves the
# previous site as it was, and the footer names the version --version prints.
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
BP=${BP:-$root/build/asan/boardpress}
BP=$(realpath "$BP")
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-readme.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "readme: FAIL: $*"; exit 1; }
cp -r "$root/content" "$root/templates" "$root/static" "$work/"
cd "$work"

# Every command of README's sh blocks, as pasted (build/boardpress is $BP).
python3 - "$root/README.md" >commands <<'PY'
import re, sys
for body in re.findall(r"^```sh\n(.*?)^```", open(sys.argv[1]).read(), re.S | re.M):
    for line in body.splitlines():
        line = re.sub(r"\s+#.*", "", line).strip()
        if line:
            print(line)
PY
[ "$(grep -c '^build/boardpress ' commands)" -ge 5 ] || fail "README's sh blocks have too few commands: $(cat commands)"
# serve ARGS...: until it serves the first page (its port: any free one)
serve() {
  local args=() a skip=
  for a in "$@"; do
    if [ -n "$skip" ]; then skip=; elif [ "$a" = --port ]; then skip=1; else args+=("$a"); fi
  done
  : >serve.err
  env --default-signal=INT,TERM "$BP" "${args[@]}" --port 0 2>serve.err &
  local pid=$! port=
  for _ in $(seq 1200); do
    port=$(sed -n 's|^boardpress: serving public on http://127.0.0.1:\([0-9]*\)/ (Ctrl-C stops)$|\1|p' serve.err)
    [ -n "$port" ] && break
    kill -0 $pid 2>/dev/null || fail "README's '$cmd' ended: $(cat serve.err)"
    sleep 0.1
  done
  [ -n "$port" ] || fail "README's '$cmd' never said where it serves: $(cat serve.err)"
  python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1]).read()' \
    "http://127.0.0.1:$port/my-first-page/" || fail "'$cmd' does not serve /my-first-page/"
  kill -INT $pid
  wait $pid || fail "'$cmd' exited $? on Ctrl-C"
}
while IFS= read -r cmd; do
  case $cmd in
  "make install"* | "sudo make install"*)
    grep -q '^install: ' "$root/Makefile" && grep -q '^PREFIX ?= /usr/local$' "$root/Makefile" ||
      fail "README says '$cmd': the Makefile has no install with PREFIX /usr/local" ;;
  "make "*)
    t=${cmd#make }; t=${t%% *}
    grep -q "^$t:" "$root/Makefile" || fail "README says '$cmd': the Makefile has no target $t" ;;
  "build/boardpress serve"*)
    read -ra argv <<<"${cmd#build/boardpress }"
    serve "${argv[@]}" ;;
  "build/boardpress "*)
    read -ra argv <<<"${cmd#build/boardpress }"
    SOURCE_DATE_EPOCH=0 "$BP" "${argv[@]}" </dev/null >out 2>err || fail "README's '$cmd' exits $?: $(cat err)" ;;
  *) fail "README's sh block says '$cmd', which this test cannot run" ;;
  esac
done <commands
[ -f public/my-first-page/index.html ] || fail "README's first page was not built"

# The example's files, the error it quotes and the page it names, from README.
python3 - "$root/README.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
sec = text[text.index("## A board written by hand"):text.index("## Preview while you write")]
def block(lang):
    body = re.search(r"```%s\n(.*?)```" % lang, sec, re.S).group(1)
    return "".join(l[3:] if l.startswith("   ") else l for l in body.splitlines(True))
board = re.search(r"a board, `(content/[^`]+)`", sec).group(1)
page = re.search(r"Write the page, `(content/[^`]+)`", sec).group(1)
for path, body in ((board, block("yaml")), (page, block("markdown"))):
    try:
        open(path, "x").write(body)  # new files: never over the site's own
    except FileExistsError:
        sys.exit("readme: FAIL: the worked example writes %s, which the site already has" % path)
quoted = re.search(r"build stops with\s+`([^`]+)`", sec).group(1)
bad = re.search(r"Misspell a measure \(`([^`]+)`\)", sec).group(1)
good = re.search(r"did you mean '([^']+)'", quoted).group(1)
open("example", "w").write("%s\n%s\n%s\n%s\n%s\n" % (page, quoted, bad, good,
    re.search(r"open\s+`public/([^`]+)`", sec).group(1)))
PY
page=$(sed -n 1p example)
quoted=$(sed -n 2p example)
bad=$(sed -n 3p example)
good=$(sed -n 4p example)
html=public/$(sed -n 5p example)

SOURCE_DATE_EPOCH=0 "$BP" build -q --cache "$work/cache" || fail "the worked example does not build"
[ -f "$html" ] || fail "README says to open $html, which the build did not write"
grep -q '<figure class="bp-figure bp-board"' "$html" || fail "$html shows no board"
version=$("$BP" --version | awk '{print $2}')
grep -q "Built with boardpress $version on" "$html" ||
  fail "the footer does not name boardpress $version (what --version prints)"

snap() { find public -type f -print0 | sort -z | xargs -0 sha256sum; }
before=$(snap)
grep -q "$good" "$page" || fail "the page has no '$good' to misspell"
sed -i "s/$good/$bad/" "$page"
set +e
SOURCE_DATE_EPOCH=0 "$BP" build -q --cache "$work/cache" 2>err
status=$?
set -e
[ "$status" = 1 ] || fail "the misspelt build exited $status, not 1"
[ "$(cat err)" = "$quoted" ] || fail "README quotes '$quoted'; boardpress printed '$(cat err)'"
[ "$(snap)" = "$before" ] || fail "the failed build changed public/"
echo "readme: its commands run as pasted, the worked example builds, and its quoted error is what boardpress prints"
