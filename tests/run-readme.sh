#!/usr/bin/env bash
# run-readme.sh — README's worked example does what README says: its board
# and page (new files, beside the real site's own) build, the page shows the
# board, the misspelling of step 3 stops the build with exactly the error
# README quotes and leaves the previous site as it was, and the footer names
# the version --version prints.
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

# The example's files, the error it quotes and the page it names, from README.
python3 - "$root/README.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
sec = text[text.index("### Adding a page: a worked example"):text.index("### Front matter")]
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
echo "readme: the worked example builds, and its quoted error is what boardpress prints"
