import CArchive
import Preview

/// Every libarchive call the libarchive plug-in makes, in one place.
enum ArchiveCalls {
    static let ok = ARCHIVE_OK
    static let eof = ARCHIVE_EOF
    static let warn = ARCHIVE_WARN

    static func newReader() -> OpaquePointer? { archive_read_new() }
    static func free(_ archive: OpaquePointer) { archive_read_free(archive) }
    static func enableAllFormats(_ archive: OpaquePointer) {
        archive_read_support_filter_all(archive)
        archive_read_support_format_all(archive)
    }
    static func open(_ archive: OpaquePointer, path: String, blockSize: Int) -> Int32 {
        archive_read_open_filename(archive, path, blockSize)
    }
    /// Opens `archive` on a byte source through read, skip and (when `seekable`) seek callbacks; without a seek
    /// callback libarchive reads a zip as a stream of local headers and data.
    static func open(_ archive: OpaquePointer, cursor: ByteSourceCursor, seekable: Bool) -> Int32 {
        archive_read_set_read_callback(archive) { _, data, buffer in
            let cursor = Unmanaged<ByteSourceCursor>.fromOpaque(data!).takeUnretainedValue()
            let count = cursor.next()
            buffer?.pointee = UnsafeRawPointer(cursor.buffer.baseAddress)
            return count
        }
        if seekable {
            archive_read_set_seek_callback(archive) { _, data, offset, whence in
                Unmanaged<ByteSourceCursor>.fromOpaque(data!).takeUnretainedValue().seek(offset, whence: whence)
            }
        }
        archive_read_set_skip_callback(archive) { _, data, count in
            Unmanaged<ByteSourceCursor>.fromOpaque(data!).takeUnretainedValue().skip(count)
        }
        archive_read_set_callback_data(archive, Unmanaged.passUnretained(cursor).toOpaque())
        return archive_read_open1(archive)
    }
    static func nextHeader(_ archive: OpaquePointer, _ entry: inout OpaquePointer?) -> Int32 {
        archive_read_next_header(archive, &entry)
    }
    static func skipData(_ archive: OpaquePointer) -> Int32 { archive_read_data_skip(archive) }
    /// libarchive's words for its last failure; empty when it gave none (a zip cut where its directory begins).
    static func errorString(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? ""
    }
    static func formatName(_ archive: OpaquePointer) -> String? {
        archive_format_name(archive).map { String(cString: $0) }
    }
    static func entryPath(_ entry: OpaquePointer) -> String? {
        // The stored form first: asking for UTF-8 runs a charset conversion for every member.
        if let raw = archive_entry_pathname(entry) { return String(cString: raw) }
        return archive_entry_pathname_utf8(entry).map { String(cString: $0) }
    }
    static func entrySize(_ entry: OpaquePointer) -> Int64? {
        archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
    }
    static func entryIsDirectory(_ entry: OpaquePointer) -> Bool { archive_entry_filetype(entry) == 0o040000 }
    static func entryFileType(_ entry: OpaquePointer) -> UInt32 { UInt32(archive_entry_filetype(entry)) }
    static func entryMode(_ entry: OpaquePointer) -> Int { Int(archive_entry_perm(entry)) }
    static func entrySymlink(_ entry: OpaquePointer) -> String? {
        (archive_entry_symlink(entry) ?? archive_entry_symlink_utf8(entry)).map { String(cString: $0) }
    }
    static func entryHardlink(_ entry: OpaquePointer) -> String? {
        (archive_entry_hardlink(entry) ?? archive_entry_hardlink_utf8(entry)).map { String(cString: $0) }
    }
    static func entryIsEncrypted(_ entry: OpaquePointer) -> Bool { archive_entry_is_encrypted(entry) != 0 }
    static func readData(_ archive: OpaquePointer, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        archive_read_data(archive, buffer.baseAddress, buffer.count)
    }
    static func entryMtime(_ entry: OpaquePointer) -> Int64 { Int64(archive_entry_mtime(entry)) }
    static func version() -> String { String(cString: archive_version_string()) }
}
