# Sourced by utils/bootstrap.sh and utils/bench/programs.sh: Debian 12 images
# ship only `deb` entries, and `apt-get source` needs `deb-src` ones.
# efsan_add_deb_src adds them (as root, through as_root, which the caller
# defines) unless some are there already; it returns 0 when it added them.
efsan_add_deb_src() {
  local list=/etc/apt/sources.list.d/efsan-deb-src.sources
  if grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    return 1
  fi
  as_root tee "$list" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
}
