import Foundation

/// The plug-ins one front door was given, in force for the work it runs: a task-local, so every task the work
/// starts (and every thread ``PluginScope/carrying(_:)`` hands it to) uses them, while work of another front door
/// in the same process uses its own or the process-wide ones. Keyed by slot, so one scope holds any slots' values.
package enum PluginScope {
    /// The plug-ins in force, by the slot they stand in for.
    @TaskLocal package static var overrides: [ObjectIdentifier: any Sendable] = [:]

    /// `body` wrapped so that it runs with the plug-ins in force where it was wrapped: for work handed to a
    /// thread of its own, which does not inherit task-locals.
    package static func carrying<Input, Output>(_ body: @escaping @Sendable (Input) -> Output)
        -> @Sendable (Input) -> Output
    {
        let overrides = Self.overrides
        guard !overrides.isEmpty else { return body }
        return { input in Self.$overrides.withValue(overrides) { body(input) } }
    }
}
