import CurlHTTP
import HTTP

/// The Linux plug-ins for the portable core: a program that links `Officer` on Linux calls ``install()`` once,
/// before it makes an ``OfficerFiles``, to carry requests on libcurl (whose bandwidth limit, CA file and
/// `--insecure` FoundationNetworking's URLSession lacks).
public enum LinuxPlugins {
    /// Installs every Linux plug-in for the rest of the process; calling it again changes nothing.
    public static func install() {
        HTTPClientConfiguration.defaultEngine.install(CurlHTTPEngine())
    }
}
