# Homebrew formula for systrace: builds the source tarball of `make dist`
# with the Mac's own clang (no Zig, no stubs: Homebrew's openssl@3 and
# libusb, the system's zlib; libcurl is opened at run time for
# --update-viewer).  `make dist` writes dist/systrace.rb, this file with
# the tarball's url and sha256 filled in (DIST_URL=... names where the
# tarball will be published; by default the local file).  To install it,
# put dist/systrace.rb in a tap of your own:
#   brew tap-new "$USER/systrace"
#   cp dist/systrace.rb "$(brew --repository "$USER/systrace")/Formula/"
#   brew install "$USER/systrace/systrace"
# The Linux build's tests do not run on a Mac (README.md, macOS).
class Systrace < Formula
  desc "Android system tracing from the host: atrace and Perfetto to HTML and JSON"
  homepage "@HOMEPAGE@"
  url "@URL@"
  sha256 "@SHA256@"
  license "Apache-2.0"

  depends_on "pkgconf" => :build
  depends_on "libusb"
  depends_on "openssl@3"

  uses_from_macos "curl"
  uses_from_macos "zlib"

  def install
    system "make", "CC=#{ENV.cc}", "PREFIX=#{prefix}", "BASHCOMPDIR=#{bash_completion}",
           "install"
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/systrace --version")
    assert_match "needs Linux", shell_output("#{bin}/systrace --target=linux 2>&1", 2)
    (testpath/"t.txt").write <<~EOS
      # tracer: nop
                   app-42    [000] ...1  100.000100: tracing_mark_write: B|42|work
                   app-42    [000] ...1  100.000900: tracing_mark_write: E|42
    EOS
    system bin/"systrace", "--from-file", testpath/"t.txt", "-j", "-o", testpath/"t.json"
    assert_match "tracing_mark_write", (testpath/"t.json").read
  end
end
