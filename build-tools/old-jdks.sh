#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# old-jdks.sh <dest-dir>
#
# Provides two old Java runtimes, taken from Debian packages, for tests that
# must run on Java 8 and Java 11 on a Debian 12 (bookworm, amd64) machine:
#
#   <dest-dir>/java11  openjdk-11-jre-headless from bullseye-security
#   <dest-dir>/java8   openjdk-8-jre-headless from sid, plus sid's libc6
#                      (the JRE needs glibc 2.38, bookworm has 2.36)
#
# Both are usable as JAVA_HOME. Nothing is installed system-wide: packages are
# fetched with a private apt configuration and unpacked with dpkg -x. The
# archive addresses come from this machine's own apt sources. A second run with
# both runtimes present does nothing.
#
# Note: the Java 8 binaries refer to the libc by absolute path, so <dest-dir>
# must not be moved afterwards (delete it and run again instead).
set -euo pipefail

say() { echo "old-jdks: $*"; }
die() { echo "old-jdks: ERROR: $*" >&2; exit 1; }
trap 'die "command failed (line $LINENO): $BASH_COMMAND"' ERR

[ $# -eq 1 ] || die "usage: $0 <dest-dir>"
mkdir -p "$1"
dest=$(cd "$1" && pwd -P)

# A runtime counts as present only once it passed the checks at the end; the
# marker file is written last.
OK=.old-jdks-ok
present() { [ -f "$dest/$1/$OK" ] && "$dest/$1/bin/java" -version >/dev/null 2>&1; }
if present java8 && present java11; then
    say "java8 and java11 already present in $dest, nothing to do"
    exit 0
fi

[ "$(dpkg --print-architecture)" = amd64 ] || die "only amd64 is supported"
command -v javac >/dev/null || die "javac (the machine's JDK) is needed for the self-check"

# Serialise concurrent runs on the same destination.
exec 9>"$dest/.old-jdks.lock"
flock 9

work=$(mktemp -d "${TMPDIR:-/tmp}/old-jdks.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- Find the Debian archives in this machine's apt sources -----------------
# Prints "<uri> <suite> <signed-by or ->" for every enabled 'deb' entry, from
# both the one-line (*.list) and the deb822 (*.sources) formats.
apt_entries() {
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk '$1 == "deb" {
            key = "-"; i = 2
            if ($i ~ /^\[/) {                      # [ option=value ... ]
                for (; i <= NF; i++) {
                    o = $i; gsub(/[\[\]]/, "", o)
                    if (o ~ /^signed-by=/) { sub(/^signed-by=/, "", o); key = o }
                    if ($i ~ /\]$/) { i++; break }
                }
            }
            print $i, $(i + 1), key
        }' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk 'BEGIN { RS = ""; FS = "\n" }       # one paragraph per entry
        {
            types = uris = suites = ""; key = "-"; enabled = "yes"
            for (n = 1; n <= NF; n++) {
                line = $n
                if (line ~ /^[ \t#]/ || line !~ /:/) continue   # comments, key blocks
                k = tolower(substr(line, 1, index(line, ":") - 1))
                v = substr(line, index(line, ":") + 1); gsub(/^[ \t]+|[ \t]+$/, "", v)
                if (k == "types") types = v
                else if (k == "uris") uris = v
                else if (k == "suites") suites = v
                else if (k == "enabled") enabled = tolower(v)
                else if (k == "signed-by" && v ~ /^\//) key = v
            }
            if (enabled == "no" || (" " types " ") !~ / deb /) next
            nu = split(uris, u, /[ \t]+/); ns = split(suites, s, /[ \t]+/)
            for (a = 1; a <= nu; a++) for (b = 1; b <= ns; b++) print u[a], s[b], key
        }' "$f"
    done
}

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || die "cannot tell the Debian release from /etc/os-release"
entries=$(apt_entries)
# The entry for "<codename>" is the main archive, "<codename>-security" the
# security archive; they may live on different hosts.
main_uri=$(awk -v s="$codename" '$2 == s { print $1; exit }' <<<"$entries")
sec_uri=$(awk -v s="$codename-security" '$2 == s { print $1; exit }' <<<"$entries")
[ -n "$main_uri" ] || die "no '$codename' entry in the apt sources"
[ -n "$sec_uri" ] || die "no '$codename-security' entry in the apt sources"

# sid and bullseye-security are signed by Debian archive keys. The complete
# Debian keyring (package debian-archive-keyring) covers both; otherwise fall
# back to the keyring of the machine's own entry, or to apt's trusted.gpg.d.
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || keyring=$(awk -v s="$codename" '$2 == s { print $3; exit }' <<<"$entries")
opt=""; [ "$keyring" != "-" ] && opt="[signed-by=$keyring] "

# --- Private apt configuration ---------------------------------------------
# Layered on top of the machine's apt.conf (proxies etc. still apply), but with
# its own sources, index lists and cache, an empty dpkg status (the installed
# packages are irrelevant) and no update hooks.
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
cat >"$work/sources.list" <<EOF
deb ${opt}$main_uri sid main
deb ${opt}$sec_uri bullseye-security main
EOF
cat >"$work/apt.conf" <<EOF
#clear APT::Update::Pre-Invoke;
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
Dir::Etc::sourcelist "$work/sources.list";
Dir::Etc::sourceparts "/dev/null";
Dir::Etc::preferences "/dev/null";
Dir::Etc::preferencesparts "/dev/null";
Dir::State::Lists "$work/lists";
Dir::State::status "/dev/null";
Dir::Cache "$work/cache";
APT::Sandbox::User "root";
Acquire::Languages "none";
EOF
apt() { apt-get -q -c "$work/apt.conf" "$@"; }

say "reading package indexes: $main_uri sid, $sec_uri bullseye-security"
apt -qq update

# Downloads <package>/<suite> and unpacks it into directory $2.
unpack() {
    local dl="$work/debs/${1%%/*}" deb
    say "downloading $1"
    mkdir -p "$dl"
    (cd "$dl" && apt -qq download "$1")
    deb=$(ls "$dl"/*.deb)
    say "unpacking $(basename "$deb")"
    mkdir -p "$2"
    dpkg -x "$deb" "$2"
}

# The package's config files are symlinks into /etc/java-*; dpkg -x puts those
# files under <root>/etc instead. Replace each link with the unpacked file so
# the java home is self-contained (java.security is needed for SHA-256, AES...).
fix_config_links() { # <java home> <unpacked package root>
    local link target
    while IFS= read -r -d '' link; do
        target=$(readlink "$link")
        case "$target" in
            /etc/java-*)
                [ -f "$2$target" ] && cp --remove-destination "$2$target" "$link" ;;
        esac
    done < <(find "$1" -type l -print0)
    # cacerts links to /etc/ssl/certs/java/cacerts (package ca-certificates-java,
    # shared with the machine's own Java). Without it the JVM still starts, only
    # TLS connections have no trusted roots.
    local cacerts
    cacerts=$(find "$1" -path '*/security/cacerts')
    [ -e "$cacerts" ] || say "warning: $cacerts is dangling (no /etc/ssl/certs/java/cacerts)"
}

# Builds java home $1 (java8|java11) in a scratch dir, then moves it into place.
install_jdk() { # <name> <package/suite>
    local root="$work/$1" home
    unpack "$2" "$root"
    home=$(find "$root/usr/lib/jvm" -mindepth 1 -maxdepth 1 -type d)
    [ -x "$home/bin/java" ] || die "no bin/java in $2"
    fix_config_links "$home" "$root"
    rm -rf "${dest:?}/$1"
    mv "$home" "$dest/$1"
}

# --- Java 11: runs as-is on bookworm -----------------------------------------
if ! present java11; then
    install_jdk java11 openjdk-11-jre-headless/bullseye-security
fi

# --- Java 8: needs sid's glibc ------------------------------------------------
if ! present java8; then
    install_jdk java8 openjdk-8-jre-headless/sid
    libc_root="$dest/java8-libc"
    rm -rf "$libc_root"
    unpack libc6/sid "$libc_root"
    ldso=$(find "$libc_root" -type f -name 'ld-linux-x86-64.so.2')
    libdir=$(dirname "$(find "$libc_root" -type f -name 'libc.so.6')")
    [ -f "$ldso" ] && [ -d "$libdir" ] || die "unexpected layout of sid's libc6"

    command -v patchelf >/dev/null || {
        say "installing patchelf"
        apt-get -qq install -y patchelf >/dev/null
    }
    # Point every ELF file of the JRE at sid's loader and put sid's libc first
    # in a forced DT_RPATH (unlike RUNPATH it also applies to the libraries'
    # own dependencies). Existing $ORIGIN paths are kept after it. Other
    # libraries (libz, libstdc++) still come from the machine: they only need
    # an older glibc.
    say "patching java8 to use $libdir"
    while IFS= read -r -d '' f; do
        head -c 4 "$f" | grep -q ELF || continue
        old=$(patchelf --print-rpath "$f")
        if [ -n "$(patchelf --print-interpreter "$f" 2>/dev/null)" ]; then
            patchelf --set-interpreter "$ldso" "$f"
        fi
        patchelf --force-rpath --set-rpath "$libdir${old:+:$old}" "$f"
    done < <(find "$dest/java8/jre/bin" "$dest/java8/jre/lib" -type f \
                  \( -perm -u+x -o -name '*.so' \) -print0)
fi

# --- Self-check -----------------------------------------------------------------
# Hashing, AES/GCM and SecureRandom need the config files above; the HTTP
# round trip exercises libnet/libnio like an application server does.
mkdir -p "$work/check"
cat >"$work/check/OldJdkCheck.java" <<'EOF'
import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.spec.GCMParameterSpec;

public class OldJdkCheck {
    public static void main(String[] args) throws Exception {
        MessageDigest.getInstance("SHA-256").digest(new byte[] {1, 2, 3});
        byte[] iv = new byte[12];
        new SecureRandom().nextBytes(iv);
        KeyGenerator kg = KeyGenerator.getInstance("AES");
        kg.init(128);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, kg.generateKey(), new GCMParameterSpec(128, iv));
        c.doFinal(new byte[] {4, 5, 6});

        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            x.sendResponseHeaders(204, -1);
            x.close();
        });
        server.start();
        try {
            URL url = new URL("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            HttpURLConnection con = (HttpURLConnection) url.openConnection();
            if (con.getResponseCode() != 204) throw new IllegalStateException("HTTP check failed");
        } finally {
            server.stop(0);
        }
        System.out.println("ok " + System.getProperty("java.version"));
    }
}
EOF
javac -nowarn --release 8 -d "$work/check" "$work/check/OldJdkCheck.java" 2>/dev/null \
    || die "could not compile the self-check with $(command -v javac)"

check() { # <name> <expected version prefix>
    local java="$dest/$1/bin/java" out
    out=$("$java" -version 2>&1) || die "$java -version failed: $(tr '\n' ' ' <<<"$out")"
    grep -q "version \"$2" <<<"$out" || die "$java is not Java $2: $(head -n 1 <<<"$out")"
    out=$("$java" -cp "$work/check" OldJdkCheck 2>&1) \
        || die "$1 self-check failed: $(tr '\n' ' ' <<<"$out" | cut -c1-300)"
    touch "$dest/$1/$OK"
    say "$1: $(head -n 1 <<<"$("$java" -version 2>&1)") - crypto and HTTP checks passed"
}
check java8 1.8.0_
check java11 11.0
say "done: JAVA_HOME=$dest/java8 or JAVA_HOME=$dest/java11"
