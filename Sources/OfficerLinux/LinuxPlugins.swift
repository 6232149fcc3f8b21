import CurlHTTP
import HTTP
import LibArchiveReading
import MagicFileTypes
import OpenSSLHashing
import Preview
import Transfer
import VipsImaging

/// The Linux plug-ins for the portable core: a program that links `Officer` on Linux calls ``install()`` once,
/// before it makes an ``OfficerFiles``. Requests then go through libcurl (whose bandwidth limit, CA file and
/// `--insecure` FoundationNetworking's URLSession lacks), digests through OpenSSL (several times the portable
/// ones' speed), and file types, archives and images through libmagic, libarchive and libvips, which the portable
/// core has no replacement for: without them those capabilities are "not available on this platform".
public enum LinuxPlugins {
    /// Installs every Linux plug-in for the rest of the process; calling it again changes nothing.
    public static func install() {
        HTTPClientConfiguration.defaultEngine.install(CurlHTTPEngine())
        SHA256Hasher.hashing.install(OpenSSLHashing())
        FileTypeDetector.plugin.install(MagicDetection())
        ArchiveReader.plugin.install(LibArchive())
        ImagePreparer.plugin.install(VipsImaging())
    }
}
