import FileModel
import HTTP
import Transfer

extension OfficerFiles {
    /// An S3-compatible remote through this front door: its requests go with the front door's HTTP settings
    /// (TLS, offline, logging, retries) and its unfinished uploads and downloads in the front door's journal.
    package func objectStore(_ remote: ObjectStoreRemote) throws -> ObjectStore {
        try ObjectStore(remote: remote, http: http, journal: try journal)
    }

    /// The configured remote of this name (``Configuration/objectStores``).
    package func objectStore(named name: String) throws -> ObjectStore {
        guard let remote = configuration.objectStores.first(where: { $0.name == name }) else {
            throw FrontDoorRefusal.invalidValue("\(name): no such remote")
        }
        return try objectStore(remote)
    }

    /// The configured remote at this endpoint (a journaled transfer names its store by endpoint).
    func objectStore(endpoint: String, named name: String? = nil) throws -> ObjectStore {
        // The remote it was started on: another with the same endpoint may hold other keys.
        let named = name.flatMap { name in
            configuration.objectStores.first { $0.name == name && $0.endpoint == endpoint }
        }
        guard let remote = named ?? configuration.objectStores.first(where: { $0.endpoint == endpoint }) else {
            throw FrontDoorRefusal.invalidValue("\(endpoint): no configured remote has this endpoint any more")
        }
        return try objectStore(remote)
    }

    /// The configured path-style remote an object URL belongs to, with the bucket: a journaled download from it
    /// is resumed with its keys (and only its keys go to its origin). The remote `named` comes first (the one
    /// the download started from: another with the same endpoint may hold other keys).
    func objectStore(forObjectURL url: String, named name: String? = nil) throws -> (ObjectStore, String)? {
        let remotes = configuration.objectStores.filter { $0.name == name } + configuration.objectStores
        for remote in remotes where remote.pathStyle && url.hasPrefix(remote.endpoint + "/") {
            let rest = url.dropFirst(remote.endpoint.count + 1)
            guard let bucket = rest.split(separator: "/").first.map(String.init), !bucket.isEmpty else { continue }
            return (try objectStore(remote), bucket)
        }
        return nil
    }
}
