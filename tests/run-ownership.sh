#!/usr/bin/env bash
# run-ownership.sh — boardpress touches only what its journal proves it made
# (generator/write/output.c, docs/architecture.md "What boardpress owns"), tried as a careful
# user and as an attacker would: copies and set-aside sites beside --out,
# links planted in the site and in the spare tree, a stale page that cannot
# be deleted, modes under umask 077, a pre-made --out with its own owner,
# group and mode, a mount point, a read-only --out (as root and as another
# user, run from a copy that user can read), a journal others may write,
# and a deleted record.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
BP=${BP:-build/asan/boardpress}
BP=$(realpath "$BP")
# The work folder sits in a folder only root may enter (as a checkout in
# `mktemp -d` does): what another user runs is copied to a folder of its own
# that user can read ($theirs), never run from here.
outer=$(mktemp -d "${TMPDIR:-/tmp}/bp-own.XXXXXX")
chmod 700 "$outer"
work=$outer/work
mkdir -m 755 "$work"
theirs=$(mktemp -d /tmp/bp-own-nobody.XXXXXX)
chmod 755 "$theirs"
cleanup() {
  chattr -R -i "$outer" "$theirs" 2>/dev/null || true
  rm -rf "$outer" "$theirs"
}
trap cleanup EXIT
fail=0
bad() {
  echo "ownership: $*"
  fail=1
}
# every entry below a folder: inode, type, mode, path, and each file's bytes
snap() { (cd "$1" && find . -printf '%i %y %m %p\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha256sum); }
beside() { ls -d public?* 2>/dev/null | grep -v -e '^public\.old-2024$' -e '^public\.tmp-backup$' -e '^public\.old-v1$' || true; }

cp -a "$here/bad/base" "$work/site"
cd "$work/site"
printf -- '---\ntitle: Extra\norder: 2\n---\nAn extra page.\n' >content/extra.md
build() { SOURCE_DATE_EPOCH=0 "$BP" build -q "$@"; }
build && build

# 1. copies beside --out, one with a note of the user's own
cp -a public public.old-2024
echo "my note" >public.old-2024/NOTE.txt
cp -a public public.tmp-backup
a=$(snap public.old-2024)
b=$(snap public.tmp-backup)
build && build
[ "$(snap public.old-2024)" = "$a" ] || bad "public.old-2024 was changed"
[ "$(snap public.tmp-backup)" = "$b" ] || bad "public.tmp-backup was changed"
[ -z "$(beside)" ] || bad "left beside public: $(beside)"
echo "ownership: copies beside --out (public.old-2024, public.tmp-backup) are left alone"

# 2. the site moved aside by hand: never taken back, never recycled
mv public public.old-v1
v=$(snap public.old-v1)
build && build && build
[ "$(snap public.old-v1)" = "$v" ] || bad "the site moved to public.old-v1 was changed or taken back"
grep -q "An extra page" public/extra/index.html || bad "no new site built after the move"
echo "ownership: a site moved aside (mv public public.old-v1) stays where the user put it"
rm -rf public.old-2024 public.tmp-backup public.old-v1

# 3. links planted in the live site and in the spare tree lead nowhere
mkdir -p "$work/outside/page"
echo victim >"$work/outside/victim.txt"
echo victim >"$work/outside/page/index.html"
o=$(snap "$work/outside")
ln -s "$work/outside" public/evil
status=0
build 2>"$work/err.txt" || status=$?
[ $status = 1 ] && grep -q "'evil' in it was not written by boardpress" "$work/err.txt" ||
  bad "a link planted in public/ was not refused (exit $status): $(cat "$work/err.txt")"
rm public/evil
spare=$(ls -d .boardpress-cache/spare-* | head -1)
rm -rf "$spare/page"
ln -s "$work/outside/page" "$spare/page"
build && build
[ "$(snap "$work/outside")" = "$o" ] || bad "a build wrote or deleted through a link in the spare tree"
[ -L "$spare/page" ] || bad "the spare tree holding a link was touched"
rm -rf .boardpress-cache/spare-*
# a killed build's tree (killed at the swap, its first renameat2 without a
# spare), with links in it: removed, the links with it, not what they lead to
status=0
(strace -f -qq -o /dev/null -e inject=renameat2:signal=KILL:when=1 \
  env SOURCE_DATE_EPOCH=0 ASAN_OPTIONS=detect_leaks=0 "$BP" build -q --jobs 1; exit $?) \
  >/dev/null 2>&1 || status=$?
stale=$(ls -d public.tmp-* 2>/dev/null | head -1 || true)
[ $status = 137 ] && [ -n "$stale" ] || bad "could not leave a killed build's tree (exit $status)"
ln -s "$work/outside" "$stale/evil"
ln "$work/outside/victim.txt" "$stale/hardlink.txt"
build
[ -z "$(beside)" ] || bad "a killed build's tree was not removed: $(beside)"
[ "$(snap "$work/outside")" = "$o" ] || bad "removing a killed build's tree reached outside it"
echo "ownership: links in the site, the spare tree and a dead build's tree never lead a build outside"

# 4. a stale page that cannot be deleted fails the build, naming it; once it
#    can be, the next build removes it, and later builds still own the site
mv content/extra.md "$work/extra.md"
spare=$(ls -d .boardpress-cache/spare-* | head -1)
if ! chattr +i "$spare/extra" 2>"$work/err.txt"; then
  bad "chattr +i does not work here: $(cat "$work/err.txt")"
else
  status=0
  build 2>"$work/err.txt" || status=$?
  [ $status = 3 ] && grep -q "cannot delete 'extra/index.html', which the site no longer has" "$work/err.txt" ||
    bad "a stale page that could not be deleted did not fail the build (exit $status): $(cat "$work/err.txt")"
  grep -q "An extra page" public/extra/index.html || bad "the failed build changed the site"
  chattr -R -i .boardpress-cache
  build || bad "the build after the stale page could be deleted failed"
  [ ! -e public/extra ] || bad "the removed page is still published"
  build || bad "a later build refused the site"
fi
[ -z "$(beside)" ] || bad "left beside public: $(beside)"
echo "ownership: a stale page that cannot be deleted fails the build (exit 3); removed by the next one"

# 5. modes: folders 0755, files 0644 whatever the umask, fresh and recycled
for round in fresh recycled; do
  [ $round = fresh ] && rm -rf public
  (umask 077 && build) || bad "a build under umask 077 failed"
  odd=$(find public ! -type d ! -perm 0644 -o -type d ! -perm 0755)
  [ -z "$odd" ] || bad "$round build under umask 077: modes off: $odd"
done
echo "ownership: under umask 077 folders are 0755 and files 0644"

# 6. a pre-made --out keeps its owner, group and mode
mkdir "$work/site/premade"
chown nobody:nogroup premade
chmod 2750 premade
for round in 1 2; do
  build --out premade || bad "a build into a pre-made folder failed"
  [ "$(stat -c '%U:%G %a' premade)" = "nobody:nogroup 2750" ] ||
    bad "build $round into a pre-made --out: it is now $(stat -c '%U:%G %a' premade)"
done
[ -z "$(ls -d premade?* 2>/dev/null)" ] || bad "left beside premade"
rm -rf premade
echo "ownership: a pre-made --out keeps its owner, group and mode"

# 7. a mount point is refused up front, saying what to do
mkdir mnt
echo "mine" >mnt/file.txt
status=0
unshare --mount sh -c "mount -t tmpfs none mnt && echo mine > mnt/mounted.txt &&
  SOURCE_DATE_EPOCH=0 '$BP' build -q --out mnt" 2>"$work/err.txt" || status=$?
grep -q "^mnt: error: refusing to write the site here: it is a mount point, which the new site cannot be swapped in for (a rename cannot move it); give --out a folder inside it (e.g. --out mnt/site)" "$work/err.txt" && [ $status = 1 ] ||
  bad "a mount point as --out (exit $status): $(cat "$work/err.txt")"
[ "$(ls -A mnt)" = file.txt ] && [ -z "$(ls -d mnt?* 2>/dev/null)" ] || bad "the mount point case changed files"
rm -rf mnt
echo "ownership: a mount point as --out is refused up front"

# 8. a read-only --out: refused before anything is made (as root: an
#    immutable folder; as another user: no write permission), nothing left
before=$(snap public)
chattr +i public
status=0
build 2>"$work/err.txt" || status=$?
chattr -i public
[ $status = 3 ] && grep -q "^public: error: cannot replace it: it is read-only" "$work/err.txt" ||
  bad "an immutable --out (exit $status): $(cat "$work/err.txt")"
[ -z "$(beside)" ] && [ "$(snap public)" = "$before" ] || bad "a build over an immutable --out left or changed files"
# the same site as another user, with its own copy of the program
mkdir -m 755 "$theirs/bin"
cp "$BP" "$theirs/bin/boardpress"
chmod 755 "$theirs/bin/boardpress"
cp -a "$here/bad/base" "$theirs/user"
chown -R nobody:nogroup "$theirs/user"
as_nobody() { (cd "$theirs/user" && setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$theirs/user" SOURCE_DATE_EPOCH=0 "$theirs/bin/boardpress" build -q "$@"); }
as_nobody && as_nobody || bad "builds as another user failed"
chmod a-w "$theirs/user/public"
status=0
as_nobody 2>"$work/err.txt" || status=$?
[ $status = 3 ] && grep -q "^public: error: cannot replace it: it is read-only (Permission denied)" "$work/err.txt" ||
  bad "a read-only --out as another user (exit $status): $(cat "$work/err.txt")"
[ -z "$(cd "$theirs/user" && ls -d public?* 2>/dev/null)" ] || bad "a build over a read-only --out left a folder beside it"
chmod u+w "$theirs/user/public"
# a folder inside made read-only is no longer as boardpress made it: refused
chmod a-w "$theirs/user/public/page"
status=0
as_nobody 2>"$work/err.txt" || status=$?
[ $status = 1 ] && grep -q "^public: error: refusing to replace this folder: 'page' in it is a folder of another mode" "$work/err.txt" ||
  bad "a site with a read-only folder as another user (exit $status): $(cat "$work/err.txt")"
[ -z "$(cd "$theirs/user" && ls -d public?* 2>/dev/null)" ] || bad "left beside a site with a read-only folder"
chmod 755 "$theirs/user/public/page"
as_nobody && as_nobody || bad "builds after the folder's mode was put back failed"
echo "ownership: a read-only --out is refused up front; nothing is left beside it"

# 9. a journal others may write proves nothing
chmod o+w .boardpress-out-public
status=0
build 2>"$work/err.txt" || status=$?
chmod o-w .boardpress-out-public
[ $status = 3 ] && grep -q "refusing to use this journal of what boardpress wrote: it may be written by others" "$work/err.txt" ||
  bad "a journal others may write was used (exit $status): $(cat "$work/err.txt")"

# 10. the record beside --out deleted: the site is no longer provably
#     boardpress's (deleting the cache folder is not that: run-trust.sh)
before=$(snap public)
rm -rf .boardpress-out-public
status=0
build 2>"$work/err.txt" || status=$?
[ $status = 1 ] && grep -q "boardpress has no record of writing it" "$work/err.txt" && [ "$(snap public)" = "$before" ] ||
  bad "a site without a record was replaced (exit $status): $(cat "$work/err.txt")"
echo "ownership: a journal others may write, or none, proves nothing"
exit $fail
