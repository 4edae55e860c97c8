import CallDirectoryCore

extension LoadReport {
  /// Records how the request ended, so that every measured executable reports and exits alike.
  /// - Parameters:
  ///   - inputError: a one-line description of why the input could not be read, if it could not.
  ///   - outcome: the context's outcome after `completeRequest` or `cancelRequest`.
  /// - Returns: the executable's exit status (``ExtensionExitStatus``).
  package mutating func conclude(inputError: String?, outcome: RequestOutcome) -> Int32 {
    if let inputError {
      self.outcome = "error"
      message = inputError
      return ExtensionExitStatus.badInput
    }
    if case .failed(let failure) = outcome {
      self.outcome = "failed"
      errorCode = failure.code
      message = failure.description
      return ExtensionExitStatus.requestFailed
    }
    return ExtensionExitStatus.completed
  }
}
