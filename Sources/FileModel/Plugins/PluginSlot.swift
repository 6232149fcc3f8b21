import Foundation

/// One capability a platform plug-in may replace: the portable default until a program installs its own for the
/// whole process (the CLI installs the Linux plug-ins at start), or a front door brings its own for its work
/// (``PluginScope``: an app's plug-ins, given in its configuration). Read on every use, so a value installed before
/// the work starts is the one it uses.
package final class PluginSlot<Value: Sendable>: Sendable {
    private let current: LockedValue<Value>

    /// A slot holding `initial` until something else is installed.
    package init(_ initial: Value) { current = LockedValue(initial) }

    /// The value in force: the front door's own for the work it runs, else the installed one.
    package var value: Value {
        // Unwrapped first: a missing entry (nil) would cast to an optional `Value` as a present nil.
        if let given = PluginScope.overrides[ObjectIdentifier(self)], let own = given as? Value { return own }
        return current.current
    }

    /// `value` as this slot's plug-in for a ``PluginScope``.
    package func scoped(_ value: Value) -> (ObjectIdentifier, any Sendable) { (ObjectIdentifier(self), value) }

    /// Installs `value` for every later use.
    package func install(_ value: Value) { current.withLock { $0 = value } }
}
