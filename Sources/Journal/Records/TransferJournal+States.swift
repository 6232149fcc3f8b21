import Foundation

/// A transfer's state as the journal keeps it: one row a transfer whatever its kind, its state a versioned JSON
/// value, so any process (or an app the system relaunched) continues a transfer from its last state, and a later
/// build reads what an earlier one wrote.
///
/// A state's format changes by a new ``stateVersion`` and a step in ``decode(_:version:)`` that reads the older
/// one; a row of a version newer than this build's is left alone for the build that wrote it.
package protocol JournaledState: Codable, Sendable {
    /// The kind of transfer: the row's `kind`.
    static var stateKind: TransferJournal.StateKind { get }
    /// The format of the state this build writes (1: the first).
    static var stateVersion: Int { get }
    /// A state written in `version` (at most ``stateVersion``), in this build's form.
    static func decode(_ data: Data, version: Int) throws -> Self
    /// The state with each local path in it passed through `transform` (a path as this run names it ↔ as it is
    /// kept, relative to its base folder); nil when one cannot be (kept under a folder this run does not declare).
    func mappingPaths(_ transform: (String) -> String?) -> Self?
}

extension JournaledState {
    /// Version 1 is the only one so far: the JSON of the type as it is.
    package static func decode(_ data: Data, version: Int) throws -> Self {
        try JSONDecoder().decode(Self.self, from: data)
    }
}

extension TransferJournal {
    /// The kinds of transfer the journal keeps, as their rows name them.
    package enum StateKind: String, Sendable, CaseIterable {
        /// A download in ranges or one stream (``TransferJournal/Download``).
        case download
        /// A tus upload, or the parts of a concatenated one.
        case tusUpload = "tus-upload"
        /// A multipart upload to an object store.
        case objectUpload = "object-upload"
    }

    /// Records or replaces the state of the transfer `key` (a key whose last line is a local path is kept relative
    /// to its base folder, as the paths inside the state are); the first time it was recorded, under any form,
    /// stays its `created`, and a row under another form goes.
    package func saveState<State: JournaledState>(_ state: State, key: String) throws(SQLiteError) {
        guard let kept = state.mappingPaths({ anchors.kept($0) }) else { return }
        let text = Self.encodedState(kept)
        let forms = keptKeyForms(key)
        let kind = State.stateKind.rawValue
        try withDatabase { database throws(SQLiteError) in
            try database.writeTransaction { () throws(SQLiteError) in
                var created = Date().timeIntervalSince1970
                for form in forms.reversed() {
                    if let row = try database.query(
                        "SELECT created FROM transfers WHERE kind = ? AND key = ?", [.text(kind), .text(form)]
                    ).first {
                        created = row[0].number
                    }
                }
                for form in forms.dropFirst() {
                    try database.execute(
                        "DELETE FROM transfers WHERE kind = ? AND key = ?", [.text(kind), .text(form)])
                }
                try database.execute(
                    "INSERT OR REPLACE INTO transfers (kind, key, version, state, created) VALUES (?, ?, ?, ?, ?)",
                    [.text(kind), .text(forms[0]), .integer(Int64(State.stateVersion)), .text(text), .real(created)])
            }
        }
    }

    /// The state of the transfer `key`, its paths as this run finds them; nil when there is none, it is of a newer
    /// build, unreadable, or kept under a folder this run does not declare.
    package func state<State: JournaledState>(_ type: State.Type, key: String) throws(SQLiteError) -> State? {
        let kind = State.stateKind.rawValue
        return try withDatabase { database throws(SQLiteError) -> State? in
            for form in keptKeyForms(key) {
                if let row = try database.query(
                    "SELECT version, state FROM transfers WHERE kind = ? AND key = ?", [.text(kind), .text(form)]
                ).first, let state = decodedState(State.self, row) {
                    return state
                }
            }
            return nil
        }
    }

    /// Every transfer of a kind, oldest first (those ``state(_:key:)`` would not give are left out, and kept).
    package func states<State: JournaledState>(_ type: State.Type) throws(SQLiteError) -> [State] {
        try withDatabase { database throws(SQLiteError) -> [State] in
            try database.query(
                "SELECT version, state FROM transfers WHERE kind = ? ORDER BY created, key",
                [.text(State.stateKind.rawValue)]
            ).compactMap { decodedState(State.self, $0) }
        }
    }

    /// Changes the state of the transfer `key` in one write transaction (progress, a claimed boot); nothing when
    /// there is none.
    package func updateState<State: JournaledState>(
        _ type: State.Type, key: String, _ change: (inout State) -> Void
    ) throws(SQLiteError) {
        let kind = State.stateKind.rawValue
        try withDatabase { database throws(SQLiteError) in
            try database.writeTransaction { () throws(SQLiteError) in
                for form in keptKeyForms(key) {
                    guard
                        let row = try database.query(
                            "SELECT version, state FROM transfers WHERE kind = ? AND key = ?",
                            [.text(kind), .text(form)]
                        ).first,
                        var state = decodedState(State.self, row)
                    else { continue }
                    change(&state)
                    guard let kept = state.mappingPaths({ anchors.kept($0) }) else { return }
                    try database.execute(
                        "UPDATE transfers SET version = ?, state = ? WHERE kind = ? AND key = ?",
                        [.integer(Int64(State.stateVersion)), .text(Self.encodedState(kept)), .text(kind), .text(form)])
                    return
                }
            }
        }
    }

    /// Forgets the transfer `key`, in whichever form it was kept.
    package func removeState<State: JournaledState>(_ type: State.Type, key: String) throws(SQLiteError) {
        try withDatabase { database throws(SQLiteError) in
            for form in keptKeyForms(key) {
                try database.execute(
                    "DELETE FROM transfers WHERE kind = ? AND key = ?", [.text(State.stateKind.rawValue), .text(form)])
            }
        }
    }

    private static func encodedState<State: JournaledState>(_ state: State) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(state)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// A row's state in this build's form with this run's paths, or nil (newer, unreadable, undeclared folder).
    private func decodedState<State: JournaledState>(_ type: State.Type, _ row: [SQLiteValue]) -> State? {
        let version = Int(row[0].int)
        guard version >= 1, version <= State.stateVersion, let text = row[1].string,
            let state = try? State.decode(Data(text.utf8), version: version)
        else { return nil }
        return state.mappingPaths(anchors.path)
    }
}

/// How the journal of format 3 (0.4) kept its transfers, turned into rows of `transfers`: the migration to
/// format 4 runs it on the file itself, the recovery of a damaged journal on the old file attached.
enum TransferStateMigration {
    /// Per kind, the statement that copies the transfers of the format-3 tables in schema `source` into
    /// `target`.`transfers`, as version 1 of their state.
    static func copyingFormatThree(from source: String, into target: String) -> [TransferJournal.StateKind: String] {
        let insert = "INSERT OR IGNORE INTO \(target).transfers (kind, key, version, state, created)"
        return [
            .download: """
            \(insert)
            SELECT 'download', d.destination, 1, json_object(
                'destination', d.destination, 'url', d.url, 'tempPath', d.temp_path, 'etag', d.etag,
                'lastModified', d.last_modified, 'total', d.total, 'bootID', d.boot_id, 'source', d.source,
                'segments', json((
                    SELECT json_group_array(json_object(
                        'index', s.idx, 'start', s.start, 'end', s.end, 'done', s.done, 'synced', s.synced))
                    FROM (
                        SELECT * FROM \(source).download_segments WHERE destination = d.destination ORDER BY idx
                    ) s))),
                d.created
            FROM \(source).downloads d
            """,
            .tusUpload: """
            \(insert)
            SELECT 'tus-upload', key, 1, json_object(
                'key', key, 'localPath', local_path, 'label', label, 'target', json(target),
                'fingerprint', json(fingerprint), 'parts', json(parts)),
                created
            FROM \(source).uploads WHERE json_valid(target) AND json_valid(fingerprint) AND json_valid(parts)
            """,
            .objectUpload: """
            \(insert)
            SELECT 'object-upload', key, 1, record, created FROM \(source).object_uploads WHERE json_valid(record)
            """,
        ]
    }
}

extension TransferJournal {
    /// A key whose last line is a local path, with that path mapped (the whole key when it has one line).
    package static func mappingLastLine(of key: String, _ transform: (String) -> String?) -> String? {
        guard let newline = key.lastIndex(of: "\n") else { return transform(key) }
        return transform(String(key[key.index(after: newline)...])).map { String(key[...newline]) + $0 }
    }
}
