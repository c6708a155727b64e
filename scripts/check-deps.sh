#!/usr/bin/env bash
# check-deps.sh: checks, without installing anything, that this machine has what building certsym
# needs: Go, a C compiler for cgo, pkg-config (cmd/certsym asks it for Z3's flags) and Z3's
# development files (libz3-dev: the header z3.h, the library libz3 and its pkg-config file).
# Every missing piece is named with the Debian package and the make target that install it; the
# exit status is 1 when something is missing, 0 otherwise.
#
# The environment can point a check elsewhere: GO (the go command), CC (the C compiler, default
# `go env CC`), CGO_CFLAGS, CGO_LDFLAGS and PKG_CONFIG (as cgo reads them), Z3_HEADER (the
# header included, default z3.h; an absolute path names a file) and Z3_LIB (the library linked,
# default z3).
set -uo pipefail

GO=${GO:-go}
Z3_HEADER=${Z3_HEADER:-z3.h}
Z3_LIB=${Z3_LIB:-z3}
pkgconfig=${PKG_CONFIG:-pkg-config}

if ! command -v "$GO" >/dev/null 2>&1; then
  echo "Go ($GO) is missing: install Go 1.26 or later (https://go.dev/doc/install); make deps does not install Go" >&2
  exit 1
fi

cc=${CC:-$("$GO" env CC)}
read -r -a cflags <<<"${CGO_CFLAGS:-}"
read -r -a ldflags <<<"${CGO_LDFLAGS:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

missing=()  # "package: reason", in the order found
miss() { missing+=("$1: $2"); }

if ! command -v "$cc" >/dev/null 2>&1; then
  miss gcc "cgo's C compiler $cc is not found"
elif ! printf '#include <stdlib.h>\nint main(void) { return 0; }\n' >"$tmp/c.c" ||
     ! "$cc" "${cflags[@]}" -o "$tmp/c" "$tmp/c.c" >"$tmp/c.log" 2>&1; then
  miss libc6-dev "the C compiler $cc cannot build a program that includes stdlib.h ($(head -1 "$tmp/c.log"))"
else
  printf '#include <%s>\nint main(void) { Z3_config c = Z3_mk_config(); Z3_del_config(c); return 0; }\n' "$Z3_HEADER" >"$tmp/z3.c"
  if ! "$cc" "${cflags[@]}" -c -o "$tmp/z3.o" "$tmp/z3.c" >"$tmp/z3h.log" 2>&1; then
    miss libz3-dev "the C compiler finds no $Z3_HEADER"
  elif ! "$cc" -o "$tmp/z3" "$tmp/z3.o" "${ldflags[@]}" -l"$Z3_LIB" >"$tmp/z3l.log" 2>&1; then
    miss libz3-dev "the C compiler cannot link -l$Z3_LIB"
  fi
fi

if ! command -v "$pkgconfig" >/dev/null 2>&1; then
  miss pkg-config "cgo runs $pkgconfig for cmd/certsym's Z3 flags and it is not found"
elif ! "$pkgconfig" --exists z3 2>/dev/null; then
  miss libz3-dev "pkg-config knows no z3 (z3.pc)"
fi

[ ${#missing[@]} -eq 0 ] && exit 0

sudo="sudo "
[ "$(id -u)" -eq 0 ] && sudo=""
pkgs=()
for m in "${missing[@]}"; do
  p=${m%%:*}
  echo "$p is missing (${m#*: }): run \`make deps\`${sudo:+ (sudo)} or \`${sudo}apt-get install $p\`" >&2
  [[ " ${pkgs[*]} " == *" $p "* ]] || pkgs+=("$p")
done
if [ ${#pkgs[@]} -gt 1 ]; then
  echo "all at once: \`make deps\` or \`${sudo}apt-get install ${pkgs[*]}\`" >&2
fi
exit 1
