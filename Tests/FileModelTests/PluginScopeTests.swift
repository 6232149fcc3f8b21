import FileModel
import Testing

/// A front door's plug-ins are in force for its work alone: a slot answers the scope's value inside it, the
/// installed one outside it and in another scope, and an optional slot with nothing scoped keeps what was installed.
@Suite struct PluginScopeTests {
    @Test func aScopedValueServesItsWorkAloneAndAnOptionalSlotKeepsWhatWasInstalled() async throws {
        let slot = PluginSlot<String?>(nil)
        slot.install("installed")
        #expect(slot.value == "installed")
        let (key, value) = slot.scoped("the front door's")
        let inside = await PluginScope.$overrides.withValue([key: value]) {
            // A task started inside inherits it; a thread is handed it by `carrying`.
            let child = await Task { slot.value }.value
            let threaded = PluginScope.carrying { (_: Int) in slot.value }
            return [slot.value, child, threaded(0)]
        }
        #expect(inside == ["the front door's", "the front door's", "the front door's"])
        let other = PluginSlot<Int>(1)
        let elsewhere = PluginScope.$overrides.withValue([other.scoped(2).0: 2]) { (slot.value, other.value) }
        #expect(elsewhere.0 == "installed" && elsewhere.1 == 2)
        #expect(slot.value == "installed" && other.value == 1)
    }
}
