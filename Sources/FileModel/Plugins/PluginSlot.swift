import Foundation

/// One process-wide capability a platform plug-in may replace: the portable default until a program installs its
/// own (the CLI installs the Linux plug-ins at start). Read on every use, so a value installed before the work
/// starts is the one it uses.
package final class PluginSlot<Value: Sendable>: Sendable {
    private let current: LockedValue<Value>

    /// A slot holding `initial` until something else is installed.
    package init(_ initial: Value) { current = LockedValue(initial) }

    /// The installed value.
    package var value: Value { current.current }

    /// Installs `value` for every later use.
    package func install(_ value: Value) { current.withLock { $0 = value } }
}
