// The privacy manifest of what an app and its extension link (PrivacyInfo.xcprivacy, beside
// this file): the required-reason APIs calldir calls, and why. A target of its own, depended on
// by SystemCalls on Apple platforms only, so that SwiftPM's resource bundle (and the Foundation
// its generated accessor imports) stays out of every module the extension's code runs; nothing
// calls into it. Apple's rules: developer.apple.com/documentation/bundleresources/privacy_manifest_files.

/// The module that carries calldir's privacy manifest; it has no API.
public enum PrivacyInfo {}
