import Foundation

/// A real nginx on 127.0.0.1 serving a temporary folder (Range, strong ETags, Last-Modified), run in the foreground.
public final class NginxServer: @unchecked Sendable {
    /// The folder served at `/`.
    public let root = TemporaryDirectory(prefix: "nginx-root")
    private let prefix = TemporaryDirectory(prefix: "nginx-prefix")
    private var process = Process()
    /// The port.
    public private(set) var port = 0
    /// `http://127.0.0.1:PORT` (https with TLS).
    public var url: String { (certificate == nil ? "http" : "https") + "://127.0.0.1:\(port)" }

    /// The self-signed certificate served when started with TLS (PEM), for `--cacert`.
    public private(set) var certificate: String?

    private init(tls: Bool, http2: Bool, directives: String) throws {
        var tlsDirectives = ""
        if tls {
            let key = prefix.path + "/key.pem"
            let cert = prefix.path + "/cert.pem"
            let made = try ProcessRunner.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                ])
            guard made.status == 0 else {
                throw BackgroundService.ServiceError.didNotStart(script: "openssl", output: made.stderr)
            }
            certificate = cert
            tlsDirectives = " ssl\(http2 ? " http2" : ""); ssl_certificate \(cert); ssl_certificate_key \(key)"
        }
        // A port free a moment ago can be taken before nginx binds it (every test starts servers at once): nginx
        // then exits, and another port is tried; answering connections alone would not prove it is ours.
        for _ in 0..<5 {
            port = try Self.freePort()
            if try start(listen: "listen 127.0.0.1:\(port)\(tlsDirectives);", directives: directives) { return }
        }
        throw BackgroundService.ServiceError.didNotStart(
            script: "nginx", output: (try? String(contentsOfFile: prefix.path + "/error.log", encoding: .utf8)) ?? "")
    }

    /// Runs nginx on one port; false when it exited (the port was taken), true once it accepts connections.
    private func start(listen: String, directives: String) throws -> Bool {
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/error.log warn;
            events { worker_connections 256; }
            http {
                access_log off;
                client_body_temp_path \(prefix.path)/body;
                proxy_temp_path \(prefix.path)/proxy;
                fastcgi_temp_path \(prefix.path)/fastcgi;
                uwsgi_temp_path \(prefix.path)/uwsgi;
                scgi_temp_path \(prefix.path)/scgi;
                sendfile on;
                server {
                    \(listen)
                    root \(root.path);
                    \(directives)
                }
            }
            """
        try prefix.write("nginx.conf", config)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", prefix.path, "-c", prefix.path + "/nginx.conf", "-e", prefix.path + "/error.log"]
        process.standardError = FileHandle.standardError
        try ProcessRunner.spawning { try process.run() }
        let (started, port) = (process, port)
        let errorLog = prefix.path + "/error.log"
        let bindFailed = {
            ((try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "").contains(
                "bind() to 127.0.0.1:\(port) failed")
        }
        if Eventually.blocking(timeout: 60, { !started.isRunning || Self.canConnect(port) }) {
            guard started.isRunning else {
                try? FileManager.default.removeItem(atPath: errorLog)
                return false
            }
            // Connected, nginx still runs and did not fail to bind: the listener is nginx's own (nginx retries a
            // taken port for a while before it exits, and someone else answers meanwhile). Its log says so within
            // a moment: watched for a bounded one.
            if !Eventually.blocking(timeout: 0.1, bindFailed), started.isRunning { return true }
            if started.isRunning { kill(started.processIdentifier, SIGKILL) }
            started.waitUntilExit()
            try? FileManager.default.removeItem(atPath: errorLog)
            return false
        }
        process.terminate()
        throw BackgroundService.ServiceError.didNotStart(
            script: "nginx", output: (try? String(contentsOfFile: prefix.path + "/error.log", encoding: .utf8)) ?? "")
    }

    /// Starts nginx off the cooperative thread pool; with `tls`, over https with a fresh self-signed certificate
    /// (offering HTTP/2 too with `http2`); `directives` go into the server block (`etag off;`).
    public static func start(tls: Bool = false, http2: Bool = false, directives: String = "") async throws
        -> NginxServer
    {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try NginxServer(tls: tls, http2: http2, directives: directives) })
            }
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A port on 127.0.0.1 that was free a moment ago.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func canConnect(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }
}
