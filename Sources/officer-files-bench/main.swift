// officer-files-bench: drives library code for bench/ scripts, which time it side by side with their anchors.
//
//   officer-files-bench cache DIR ENTRIES LIMIT_BYTES MIN_SIZE MAX_SIZE [SEED]
//
// Puts ENTRIES entries of random sizes into a ContentCache at DIR (evicting as it fills), then gets ENTRIES random
// keys, and prints one JSON object: latencies (p50/p99, ms) of the commit (index + link, the file write excluded),
// of the whole put, of gets; throughputs; evictions; and how often a put returned with the cache over its limit.
//
//   officer-files-bench hash FILE
//
// Hashes FILE with the portable SHA-256 (the Swift one every build without a hashing plug-in uses: an Apple app's
// without its own), reading 1 MiB at a time, and prints one JSON object: the seconds and the hex digest.
//
//   officer-files-bench urlsession-get data|download URL OUT [TOKEN]
//   officer-files-bench urlsession-put TUS_URL FILE TOKEN NAME
//
// The platform's URLSession alone (BareURLSession.swift): one GET to OUT by a data or a download task; a tus
// creation and one PATCH from FILE. Each prints {"seconds": S}: the floor the URLSession engine is measured against.
import Foundation
import HTTP
import Transfer

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
}

func now() -> Double { ProcessInfo.processInfo.systemUptime }

func cacheBenchmark(_ arguments: [String]) throws {
    guard arguments.count >= 5, let entries = Int(arguments[1]), let limit = Int64(arguments[2]),
        let minimum = Int(arguments[3]), let maximum = Int(arguments[4])
    else {
        FileHandle.standardError.write(
            Data("usage: officer-files-bench cache DIR ENTRIES LIMIT MIN_SIZE MAX_SIZE [SEED]\n".utf8))
        exit(2)
    }
    var seed = UInt64(arguments.count > 5 ? Int(arguments[5]) ?? 1 : 1)
    func next() -> UInt64 {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return seed >> 11
    }
    let cache = try ContentCache(directory: arguments[0], limit: limit)
    let payload = Data((0..<maximum).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    func key(_ index: Int) -> CacheKey {
        CacheKey(
            server: "http://127.0.0.1#bench-\(getpid())", root: "home", path: "/bench/\(index)",
            kind: CacheKey.Kind.body)
    }
    var commit: [Double] = [], put: [Double] = [], get: [Double] = []
    commit.reserveCapacity(entries)
    put.reserveCapacity(entries)
    get.reserveCapacity(entries)
    var overLimit = 0
    let before = try cache.statistics()
    let putStart = now()
    for index in 0..<entries {
        let size = minimum + Int(next() % UInt64(maximum - minimum + 1))
        let started = now()
        let staged = try cache.stage()
        try staged.write(payload.prefix(size))
        try staged.finish()
        let committing = now()
        try cache.commit(staged, key: key(index), version: "\"\(index)\"")
        let done = now()
        commit.append((done - committing) * 1000)
        put.append((done - started) * 1000)
        if index % 100 == 0, try cache.statistics().bytes > limit { overLimit += 1 }
    }
    let putSeconds = now() - putStart
    let afterPuts = try cache.statistics()
    var hits = 0
    let getStart = now()
    for _ in 0..<entries {
        let index = Int(next() % UInt64(entries))
        let started = now()
        if try cache.entry(for: key(index)) != nil { hits += 1 }
        get.append((now() - started) * 1000)
    }
    let getSeconds = now() - getStart
    let evicted = before.entries + entries - afterPuts.entries
    let result: [String: Double] = [
        "entries": Double(entries), "commit_p50_ms": percentile(commit, 0.5), "commit_p99_ms": percentile(commit, 0.99),
        "put_p50_ms": percentile(put, 0.5), "put_p99_ms": percentile(put, 0.99), "get_p50_ms": percentile(get, 0.5),
        "get_p99_ms": percentile(get, 0.99), "puts_per_s": Double(entries) / putSeconds,
        "gets_per_s": Double(entries) / getSeconds,
        "evicted": Double(evicted), "evictions_per_s": Double(evicted) / putSeconds,
        "hit_pct": Double(hits) * 100 / Double(entries),
        "over_limit_after_put": Double(overLimit), "final_bytes": Double(afterPuts.bytes), "limit": Double(limit),
    ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    print(String(decoding: try encoder.encode(result), as: UTF8.self))
}

/// The portable SHA-256 of a file, timed from its first read to the digest.
func hashBenchmark(_ arguments: [String]) throws {
    guard let path = arguments.first, let file = FileHandle(forReadingAtPath: path) else {
        throw CocoaError(.fileReadNoSuchFile)
    }
    defer { try? file.close() }
    let started = now()
    let digest = PortableHashing().makeDigest(.sha256)
    while let chunk = try file.read(upToCount: 1 << 20), !chunk.isEmpty {
        chunk.withUnsafeBytes { digest.update($0) }
    }
    let hex = digest.finalize().map { String(format: "%02x", $0) }.joined()
    let seconds = now() - started
    print(#"{"seconds": \#(seconds), "sha256": "\#(hex)"}"#)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "cache": try cacheBenchmark(Array(arguments.dropFirst()))
    case "hash": try hashBenchmark(Array(arguments.dropFirst()))
    case "urlsession-get": try bareURLSessionGet(Array(arguments.dropFirst()))
    case "urlsession-put": try bareURLSessionPut(Array(arguments.dropFirst()))
    default:
        FileHandle.standardError.write(
            Data("usage: officer-files-bench cache ... | hash FILE | urlsession-get ... | urlsession-put ...\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("officer-files-bench: \(error)\n".utf8))
    exit(1)
}
