import FileModel
import Foundation
import HTTP
import Transfer

/// What the front door knows of the servers and stores a request can go to, so a failure names what the user
/// wrote (`officer:/docs`, `work:/x`, `backup:photos/a.jpg`, the server's address) instead of a request's URL.
package struct LocationNames: Sendable {
    struct Officer: Sendable {
        var base: String
        var origin: URLOrigin
        var name: String?
    }

    struct Store: Sendable {
        var endpoint: String
        var origin: URLOrigin
        var name: String
        var pathStyle: Bool
    }

    var officers: [Officer] = []
    var stores: [Store] = []
    var defaultRoot = RemotePath.defaultRoot

    /// Terms that know no server: locations come out as the request's address without its query.
    package init() {}

    /// Terms for a front door's servers, named remotes and object stores.
    package init(configuration: OfficerFiles.Configuration) {
        defaultRoot = configuration.defaultRoot
        var officers: [Officer] = configuration.officerRemotes.compactMap { remote in
            URLOrigin(url: remote.server).map {
                Officer(base: Self.trimmed(remote.server), origin: $0, name: remote.name)
            }
        }
        if let server = configuration.server, let origin = URLOrigin(url: server) {
            officers.insert(
                Officer(
                    base: Self.trimmed(server), origin: origin,
                    name: officers.first { $0.base == Self.trimmed(server) }?.name), at: 0)
        }
        self.officers = officers
        stores = configuration.objectStores.compactMap { store in
            URLOrigin(url: store.endpoint).map {
                Store(endpoint: Self.trimmed(store.endpoint), origin: $0, name: store.name, pathStyle: store.pathStyle)
            }
        }
    }

    static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// The subject and the server of a request label (`GET http://…`): the location it was about where it names
    /// one, else the server; a label without a URL (`sign out`) is its own subject.
    package func subject(ofRequest label: String) -> (subject: String, server: String) {
        let url = label.split(separator: " ", maxSplits: 1).last.map(String.init) ?? label
        guard let origin = URLOrigin(url: url), let components = URLComponents(string: url) else {
            // An object store's request: `HEAD on backup:photos/a.jpg` names `backup:photos/a.jpg`.
            if let range = label.range(of: ObjectStoreClient.labelSeparator) {
                let subject = String(label[range.upperBound...])
                return (subject, subject)
            }
            return (label, label)
        }
        if let officer = officers.first(where: { $0.origin == origin && url.hasPrefix($0.base) }) {
            let server = officer.name.map { "\($0) (\(officer.base))" } ?? officer.base
            let items = components.queryItems ?? []
            guard let path = items.first(where: { $0.name == "path" })?.value else { return (server, officer.base) }
            let root = items.first { $0.name == "root" }?.value ?? defaultRoot
            let location = (try? RemotePath(root: root, path: path, remote: officer.name))?.description ?? path
            return (location, officer.base)
        }
        if let store = stores.first(where: {
            $0.origin == origin || origin.host.hasSuffix("." + $0.origin.host) && $0.origin.port == origin.port
        }) {
            var path = components.percentEncodedPath.removingPercentEncoding ?? components.path
            if !store.pathStyle || store.origin != origin, let bucket = origin.host.split(separator: ".").first {
                path = "/" + bucket + path
            }
            let trimmed = path.drop { $0 == "/" }
            return (store.name + ":" + trimmed, store.endpoint)
        }
        var shown = components
        shown.query = nil
        shown.password = nil
        shown.user = nil
        let address = shown.string ?? url
        return (
            address, "\(origin.scheme)://\(components.host ?? origin.host)\(components.port.map { ":\($0)" } ?? "")"
        )
    }

    /// A place on an Officer server as the user writes it: `officer:/x`, `officer:ROOT:/x`, `work:/x` on a named
    /// remote's server (`server` may carry the account after a `#`, as cache keys do).
    package func location(server: String, root: String, path: String) -> String {
        let base = Self.trimmed(String(server.split(separator: "#", maxSplits: 1).first ?? ""))
        let name = officers.first { $0.base == base || ConfigurationMatch.same($0.base, base) }?.name
        return (try? RemotePath(root: root, path: path, remote: name))?.description ?? path
    }

    /// An object on the store at `endpoint` as the user writes it (`backup:bucket/key`); `bucket/key` when no
    /// configured remote has that endpoint.
    package func objectLocation(endpoint: String, bucket: String, key: String, remote: String? = nil) -> String {
        let sameEndpoint = { (store: Store) in
            ConfigurationMatch.same(store.endpoint, Self.trimmed(endpoint)) || store.endpoint == Self.trimmed(endpoint)
        }
        let name =
            (stores.first { $0.name == remote && sameEndpoint($0) } ?? stores.first(where: sameEndpoint))?.name
        return (name.map { $0 + ":" } ?? "") + bucket + "/" + key
    }

    /// The location a download's URL is (`officer:/x`, `work:/x`), or the URL itself for a plain one; an object
    /// URL is named by `remote` where that remote has the endpoint the URL's first match has.
    package func location(ofURL url: String, remote: String? = nil) -> String {
        let shown = subject(ofRequest: "GET " + url).subject
        guard let remote, let colon = shown.firstIndex(of: ":"),
            let first = stores.first(where: { $0.name == shown[..<colon] }),
            stores.contains(where: { $0.name == remote && $0.endpoint == first.endpoint })
        else { return shown }
        return remote + shown[colon...]
    }

    /// The name a server goes by: its remote's name and address for a named Officer remote, else its address.
    package func serverName(_ server: String) -> String {
        let base = Self.trimmed(server)
        guard let officer = officers.first(where: { $0.base == base }), let name = officer.name else { return base }
        return "\(name) (\(base))"
    }
}

/// Two server URLs that name the same server (scheme and host case, a default port written or not).
enum ConfigurationMatch {
    static func same(_ a: String, _ b: String) -> Bool {
        guard let left = URLOrigin(url: a), let right = URLOrigin(url: b) else { return false }
        return left == right && (URLComponents(string: a)?.path ?? "") == (URLComponents(string: b)?.path ?? "")
    }
}
