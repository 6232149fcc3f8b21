import FileModel
import Foundation
import Journal
import Transfer

extension ObjectStore {
    /// Objects a listing page asks about at once for their own times.
    static let timeQuestions = 16

    /// Gives a listing page's objects their files' own times, the one time `stat` shows too: remembered in the
    /// journal for that ETag and size where this tool wrote or read the object, else asked with a HEAD (at most
    /// ``timeQuestions`` at once, as `rclone lsl` asks), remembered for the next listing. An object stored
    /// without a time of its own keeps the time the store received it.
    func withOwnTimes(_ entries: [ObjectEntry], bucket: String, prefix: String, recursive: Bool) async -> [ObjectEntry]
    {
        let endpoint = client.endpoint.url
        let remembered =
            recursive ? [:] : ((try? journal?.objectTimes(endpoint: endpoint, bucket: bucket, prefix: prefix)) ?? [:])
        var entries = entries
        var unknown: [Int] = []
        for (index, entry) in entries.enumerated() where !entry.isFolder {
            let key = entry.path.key
            if let time = remembered[key] ?? (recursive ? rememberedTime(endpoint, bucket, key) : nil),
                time.etag == entry.etag.map(ObjectInfo.unquoted), time.size == entry.size
            {
                entries[index].mtime = time.mtime
            } else {
                unknown.append(index)
            }
        }
        let client = client
        await withTaskGroup(of: (Int, ObjectInfo?).self) { group in
            var next = unknown.makeIterator()
            for _ in 0..<Self.timeQuestions {
                guard let index = next.next() else { break }
                let key = entries[index].path.key
                group.addTask { (index, try? await client.head(bucket: bucket, key: key)) }
            }
            while let (index, info) = await group.next() {
                if let info, info.etag == entries[index].etag {
                    entries[index].mtime = info.modificationTime
                    rememberStoredTime(of: info, bucket: bucket)
                }
                if let following = next.next() {
                    let key = entries[following].path.key
                    group.addTask { (following, try? await client.head(bucket: bucket, key: key)) }
                }
            }
        }
        return entries
    }

    /// Remembers the time an answer about an object (a HEAD's, a GET's) says it was stored with, when it says one:
    /// the next listing or sync knows it without a HEAD; a journal that cannot be written only costs one next time.
    func rememberStoredTime(of info: ObjectInfo, bucket: String) {
        guard info.metadata["mtime"] != nil, let etag = info.etag else { return }
        try? journal?.rememberObjectTime(
            endpoint: client.endpoint.url, bucket: bucket, key: info.key,
            .init(etag: ObjectInfo.unquoted(etag), size: info.size, mtime: info.modificationTime))
    }

    private func rememberedTime(_ endpoint: String, _ bucket: String, _ key: String) -> TransferJournal.ObjectTime? {
        (try? journal?.objectTime(endpoint: endpoint, bucket: bucket, key: key)) ?? nil
    }
}
