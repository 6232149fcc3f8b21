import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This boot of the machine, to tell a crashed process (the page cache kept its unflushed writes) from a crashed
/// machine (they may be gone).
package enum BootSession {
    /// The kernel's boot id (Linux: `/proc/sys/kernel/random/boot_id`; Darwin: `kern.bootsessionuuid`). Where
    /// neither can be read, one of this process's own: every run then looks like a new boot, so what an earlier
    /// run wrote is checked, never trusted.
    package static let identifier: String = read() ?? "unknown-\(UUID().uuidString)"

    private static func read() -> String? {
        #if canImport(Darwin)
            var size = 0
            guard sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) == 0, size > 0 else { return nil }
            var buffer = [CChar](repeating: 0, count: size)
            guard sysctlbyname("kern.bootsessionuuid", &buffer, &size, nil, 0) == 0 else { return nil }
            return String(cString: buffer)
        #else
            return (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        #endif
    }
}
