extension Result {
    /// The error of a failed result.
    var failureError: Failure? { if case .failure(let error) = self { error } else { nil } }
}
