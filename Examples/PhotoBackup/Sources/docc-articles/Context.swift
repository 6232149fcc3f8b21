import Foundation
import Officer

// What the DocC articles take for granted — an app's front door, the row it tapped, its own screens — so their
// code (Articles.swift, generated from them) compiles as written. Never run: each name stands for the app's own.

@MainActor var files: OfficerFiles { fatalError("the app's front door") }
@MainActor var keychain: any TokenStore { MemoryTokenStore() }
@MainActor var password: String { "" }
@MainActor var appSupport: URL { URL(fileURLWithPath: NSTemporaryDirectory()) }
@MainActor var caches: URL { URL(fileURLWithPath: NSTemporaryDirectory()) }
@MainActor var documents: URL { URL(fileURLWithPath: NSTemporaryDirectory()) }
@MainActor var cameraRoll: URL { URL(fileURLWithPath: NSTemporaryDirectory()) }

// A folder screen.
@MainActor var folder: Location { .local("/") }
@MainActor var savedCursor: String? { nil }
@MainActor var rows: [RemoteEntry] = []
@MainActor var visibleRows: Int { 100 }
@MainActor var badge = 0

// The row tapped, and where its file goes.
@MainActor var entry: RemoteEntry { fatalError("the row tapped") }
@MainActor var receipt: RemoteEntry { fatalError("the row tapped") }
@MainActor var notes: RemoteEntry { fatalError("the row tapped") }
@MainActor var destination: URL { URL(fileURLWithPath: NSTemporaryDirectory()) }
@MainActor var listening: URL { URL(fileURLWithPath: NSTemporaryDirectory()) }
@MainActor var item: Location { .local("/") }
@MainActor var archive: Location { .local("/") }

// A chat screen.
@MainActor var photo: URL { URL(fileURLWithPath: NSTemporaryDirectory()) }
@MainActor var screenshot: URL { URL(fileURLWithPath: NSTemporaryDirectory()) }
@MainActor var text: String { "" }
@MainActor func sendMessage(_ text: String, attachmentIds: [String]) {}

// What the app shows.
@MainActor func show(_ fraction: Double?, _ bytesPerSecond: Double?, _ secondsLeft: Double?) {}
@MainActor func show(_ event: SyncEvent) {}
@MainActor func showSignIn() {}
@MainActor func askToReplace(_ subject: String?) {}
@MainActor func offerRetry() {}
@MainActor func showAlert(_ message: String) {}
