/// Levenshtein distance, for "did you mean" suggestions (commands, options, remote names).
package enum EditDistance {
    /// The number of single-character edits from `a` to `b`.
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate nearest to `word`, if it is near enough to be a plausible typo (or `word` is its prefix).
    package static func suggestion(for word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, between(word, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored else { return nil }
        let limit = max(2, word.count / 3)
        if distance <= limit { return best }
        return candidates.first { $0.hasPrefix(word) && word.count >= 2 }
    }
}
