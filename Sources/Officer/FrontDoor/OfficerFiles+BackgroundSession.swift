import Foundation
import HTTP

extension OfficerFiles {
    /// Hands the front door the system's completion handler for the app's background session
    /// (`application(_:handleEventsForBackgroundURLSession:completionHandler:)`): the session named `identifier` is
    /// made again if the app was relaunched for it, and `completionHandler` is called on the main queue once every
    /// event the system kept for it was delivered. A front door whose configuration names the same
    /// ``Configuration/backgroundSessionIdentifier`` shares that session.
    public static func handleEventsForBackgroundURLSession(
        _ identifier: String, completionHandler: @escaping @Sendable () -> Void
    ) {
        URLSessionEngine.forSession(identifier).onBackgroundEventsDelivered(completionHandler)
    }
}
